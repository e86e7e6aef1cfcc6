// Rewrites 1-D convolutions and pools on [N,C,L] (Conv, MaxPool, AveragePool, BatchNormalization,
// GlobalAveragePool) as their 2-D forms on [N,C,1,L], so that everything downstream (fusion,
// layout, quantisation, the NPU) sees only 2-D ones. Steps, in topological order:
//   1. A 1-D op reads the 4-D version of its input: the output of an op already rewritten, or
//      a new Unsqueeze {axes=[2]}. Its weights [O,I,K] become [O,I,1,K], its window attributes
//      are widened (op_util.h WidenAttributes1D); a Squeeze {axes=[2]} gives its old readers
//      the 3-D result.
//   2. Elementwise ops whose activations all have 4-D versions are rewritten in 4-D too
//      (constants broadcast against [N,C,L] get the H axis), and Flatten reads the 4-D version
//      directly (the same values in the same order), so whole 1-D networks need no Squeeze.
//   3. Squeezes nobody reads are dropped; types are re-inferred.
// After it, no Conv, pool or BatchNormalization reads a 3-D tensor.
#include <unordered_map>

#include "compiler/interp/op_util.h"
#include "compiler/passes/layout_util.h"
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

const std::vector<int64_t> kAxisH = {2};

bool Is1D(const ir::Node& n) {
  const ir::Tensor* x = n.input(0);
  if (x == nullptr || x->shape().size() != 3 || x->dtype() != ir::DType::kFloat32) return false;
  switch (n.kind()) {
    case ir::OpKind::kConv:
      return n.input(1) != nullptr && n.input(1)->is_constant() && n.input(1)->shape().size() == 3;
    case ir::OpKind::kMaxPool:
    case ir::OpKind::kAveragePool:
    case ir::OpKind::kBatchNormalization:
    case ir::OpKind::kGlobalAveragePool:
      return n.num_outputs() == 1;
    default:
      return false;
  }
}

class Canonicalizer {
 public:
  explicit Canonicalizer(ir::Graph& g) : g_(g) {}

  int64_t Run() {
    int64_t rewritten = 0;
    for (ir::Node* n : g_.nodes()) {
      if (Is1D(*n)) {
        Rewrite(n, WideOperands(*n, /*window=*/true), WidenAttributes(n->attrs()));
        ++rewritten;
      } else if (RoleOf(n->kind()) == Role::kElementwise && AllWide(*n)) {
        Rewrite(n, WideOperands(*n, /*window=*/false), n->attrs());
      } else if (n->kind() == ir::OpKind::kFlatten && wide_.count(n->input(0))) {
        const int64_t axis = n->attrs().GetInt("axis", 1);
        if (axis < 0 || axis > 2) continue;  // [N*C, L] etc. equal in 4-D for axis 0..2
        g_.SetNodeInput(n, 0, wide_.at(n->input(0)));
      }
    }
    EraseIfDead(g_, squeezes_);
    return rewritten;
  }

 private:
  static ir::Attributes WidenAttributes(const ir::Attributes& a) {
    return interp::WidenAttributes1D(a);
  }

  // Every non-constant input is 3-D with a 4-D version, and the output is 3-D.
  bool AllWide(const ir::Node& n) const {
    if (n.num_outputs() != 1 || n.output(0)->shape().size() != 3) return false;
    bool any = false;
    for (const ir::Tensor* t : n.inputs()) {
      if (t == nullptr) continue;
      if (t->is_constant() ? t->shape().size() > 3 : !wide_.count(t)) return false;
      any = any || !t->is_constant();
    }
    return any;
  }

  // The inputs for the 4-D node: activations' 4-D versions; a window op's weights with an H
  // axis; an elementwise op's constants padded to rank 3 with an H axis inserted.
  std::vector<ir::Tensor*> WideOperands(const ir::Node& n, bool window) {
    std::vector<ir::Tensor*> in;
    for (size_t i = 0; i < n.num_inputs(); ++i) {
      ir::Tensor* t = n.input(i);
      if (t == nullptr) {
        in.push_back(nullptr);
      } else if (!t->is_constant()) {
        in.push_back(Wide(t));
      } else if (window && !(n.kind() == ir::OpKind::kConv && i == 1)) {
        in.push_back(t);  // bias, BN parameters
      } else {
        ir::Shape s = t->shape();
        s.insert(s.begin(), 3 - s.size(), 1);
        s.insert(s.begin() + 2, 1);
        ir::Tensor* c = g_.AddConstant<uint8_t>(g_.UniqueName(t->name() + "_2d"), s, {});
        c->set_bytes(t->dtype(), t->bytes());
        in.push_back(c);
      }
    }
    return in;
  }

  ir::Tensor* Wide(ir::Tensor* t) {
    auto it = wide_.find(t);
    if (it != wide_.end()) return it->second;
    ir::Attributes axes;
    axes.Set("axes", kAxisH);
    ir::Tensor* w = g_.AddNode(ir::OpKind::kUnsqueeze, "canonicalize-1d." + t->name(), {t},
                               {g_.UniqueName(t->name() + "_2d")}, axes)
                        ->output(0);
    return wide_[t] = w;
  }

  // A 4-D twin of `n`; its old readers get the 3-D result back through a Squeeze.
  void Rewrite(ir::Node* n, std::vector<ir::Tensor*> in, ir::Attributes attrs) {
    ir::Tensor* out = n->output(0);
    ir::Tensor* wide =
        g_.AddNode(n->kind(), n->name(), in, {g_.UniqueName(out->name() + "_2d")}, attrs)
            ->output(0);
    ir::Attributes axes;
    axes.Set("axes", kAxisH);
    ir::Node* squeeze = g_.AddNode(ir::OpKind::kSqueeze, n->name() + ".squeeze", {wide},
                                   {g_.UniqueName(out->name() + "_1d")}, axes);
    squeezes_.push_back(squeeze);
    ir::Tensor* narrow = squeeze->output(0);  // typed now: later nodes' checks read its shape
    narrow->set_dtype(out->dtype());
    narrow->set_shape(out->shape());
    narrow->set_layout(out->layout());
    ReplaceNode(g_, n, narrow);
    wide_[narrow] = wide;
  }

  ir::Graph& g_;
  std::unordered_map<const ir::Tensor*, ir::Tensor*> wide_;  // 3-D tensor -> 4-D version
  std::vector<ir::Node*> squeezes_;
};

}  // namespace

Status Canonicalize1D(ir::Graph& graph, PassContext& ctx) {
  Canonicalizer c(graph);
  const int64_t rewritten = c.Run();
  if (rewritten == 0) return Status::Ok();
  ctx.Count("canonicalize-1d.rewritten", rewritten);
  return Retype(graph);
}

}  // namespace npu::compiler::passes
