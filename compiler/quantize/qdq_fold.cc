// FoldQdq: QDQ and QLinear models to a float graph carrying the model's quantisation parameters.
//   1. Walk the nodes in order: QuantizeLinear of an activation records the int edge's float
//      value and parameters; DequantizeLinear of such an edge is bypassed (its readers read the
//      float value), of a constant it becomes a dequantised float constant; QLinear ops become
//      float ops over dequantised constants.
//   2. Graph outputs that are int edges become their float values.
//   3. Erase the folded nodes (reverse order, so readers go first); anything left reading int8
//      values is an error.
#include "compiler/quantize/qdq_fold.h"

#include <fmt/format.h>

#include <unordered_map>

#include "compiler/passes/passes.h"
#include "compiler/passes/pipeline.h"
#include "compiler/quantize/activations.h"
#include "compiler/quantize/qdq_params.h"

namespace npu::compiler::quantize {
namespace {

using ir::OpKind;

bool IsQdqKind(OpKind k) {
  return k == OpKind::kQuantizeLinear || k == OpKind::kDequantizeLinear ||
         k == OpKind::kQLinearConv || k == OpKind::kQLinearMatMul;
}

class QdqFolder {
 public:
  QdqFolder(ir::Graph& g, passes::PassContext& ctx) : g_(g), ctx_(ctx) {}

  Status Run() {
    for (ir::Node* n : g_.nodes()) NPU_TRY(Fold(n));
    for (size_t i = 0; i < g_.outputs().size(); ++i) {
      auto it = float_of_.find(g_.outputs()[i]);
      if (it != float_of_.end()) Replace(g_.outputs()[i], it->second);
    }
    NPU_TRY(EraseFolded());
    g_.RemoveUnusedTensors();
    return g_.SortTopologically();
  }

 private:
  Status Fold(ir::Node* n) {
    switch (n->kind()) {
      case OpKind::kQuantizeLinear:
        return n->input(0) != nullptr && n->input(0)->is_constant() ? Status::Ok()  // step 2 of DQ
                                                                    : FoldQuantize(n);
      case OpKind::kDequantizeLinear:
        return FoldDequantize(n);
      case OpKind::kQLinearConv:
      case OpKind::kQLinearMatMul:
        return FoldQLinear(n);
      default:
        return Status::Ok();
    }
  }

  Status Unsupported(const ir::Node& n, const std::string& why) {
    return Unimplemented(fmt::format("node '{}' ({}): {}", n.name(), ir::OpName(n.kind()), why));
  }

  // Per-tensor parameters of an activation operand.
  StatusOr<QdqParams> ActivationParamsOf(const ir::Node& n, size_t scale, size_t zp) {
    NPU_ASSIGN_OR_RETURN(const QdqParams p, ReadQdqParams(n, scale, zp, 1));
    if (p.scale.size() != 1) {
      return Unsupported(n,
                         "per-channel activation quantisation (the NPU quantises activations "
                         "per tensor)");
    }
    return p;
  }

  // Gives float activation `t` the model's parameters, and the ReLU chain's input before it.
  Status SetParams(ir::Tensor* t, const ir::QuantParams& q) {
    if (!t->quant().empty() &&
        (t->quant().scale != q.scale || t->quant().zero_point != q.zero_point)) {
      return Unimplemented(fmt::format(
          "tensor '{}' is quantised twice, with scale {} zero point {} and scale {} zero point {}",
          t->name(), t->quant().scale[0], t->quant().zero_point[0], q.scale[0], q.zero_point[0]));
    }
    t->quant() = q;
    for (const ir::Node* p = t->producer(); p != nullptr && !ActivationOf(*p).empty();) {
      ir::Tensor* in = p->input(0);
      if (in->is_constant() || in->users().size() != 1 || g_.IsGraphOutput(in) ||
          !in->quant().empty()) {
        break;
      }
      in->quant() = q;  // after fusion the op before the ReLU produces the quantised value
      p = in->producer();
    }
    return Status::Ok();
  }

  // The float value behind int edge input `i` of `n`, whose parameters must be `expect`.
  StatusOr<ir::Tensor*> FloatOf(const ir::Node& n, size_t i, const QdqParams& expect) {
    const ir::Tensor* e = n.input(i);
    auto it = float_of_.find(e);
    if (it == float_of_.end()) {
      return Unsupported(n, fmt::format("input %{} is not the output of a QuantizeLinear or "
                                        "QLinear op",
                                        e ? e->name() : "?"));
    }
    if (!(params_.at(e) == expect)) {
      return Unsupported(n, fmt::format("reads %{} with other parameters than it was quantised "
                                        "with (a requantisation the quantised IR cannot express)",
                                        model_name_.count(e) ? model_name_.at(e) : e->name()));
    }
    return it->second;
  }

  // Readers of `from` read `to`; a graph output keeps its name.
  void Replace(ir::Tensor* from, ir::Tensor* to) {
    const bool output = g_.IsGraphOutput(from);
    g_.ReplaceAllUsesWith(from, to);
    if (!output || to->is_constant() || to->producer() == nullptr) return;
    const std::string name = from->name();
    g_.RenameTensor(from, g_.UniqueName(name + ".int"));
    g_.RenameTensor(to, name);
  }

  Status FoldQuantize(ir::Node* q) {
    NPU_ASSIGN_OR_RETURN(const QdqParams p, ActivationParamsOf(*q, 1, 2));
    NPU_TRY(SetParams(q->input(0), p.ToInt8()));
    float_of_[q->output(0)] = q->input(0);
    params_[q->output(0)] = p;
    ctx_.Count("fold-qdq.quantize");
    return Status::Ok();
  }

  // The integer values of a constant, or of QuantizeLinear of a float constant (whose shape is
  // the constant's: import does not infer intermediate shapes).
  StatusOr<std::vector<int32_t>> ConstantInts(const ir::Node& reader, const ir::Tensor* t,
                                              const ir::Tensor*& source) {
    source = t;
    if (t->is_constant()) return IntValues(*t);
    const ir::Node* q = t->producer();
    if (q == nullptr || q->kind() != OpKind::kQuantizeLinear || !q->input(0)->is_constant()) {
      return Unsupported(reader, fmt::format("%{} is neither a constant nor a quantised "
                                             "activation",
                                             t->name()));
    }
    NPU_ASSIGN_OR_RETURN(const QdqParams p, ReadQdqParams(*q, 1, 2, q->attrs().GetInt("axis", 1)));
    source = q->input(0);
    return QuantizeConstant(*q->input(0), p);
  }

  // A float constant of the dequantised values of `ints`, carrying `p`.
  StatusOr<ir::Tensor*> DequantizedConstant(const std::string& name, const ir::Shape& shape,
                                            const std::vector<int32_t>& ints, const QdqParams& p) {
    NPU_ASSIGN_OR_RETURN(const std::vector<float> values, DequantizeValues(ints, shape, p));
    ir::Tensor* c = g_.AddConstant(g_.UniqueName(name), shape, values);
    c->quant() = p.ToInt8();
    return c;
  }

  Status FoldDequantize(ir::Node* dq) {
    const ir::Tensor* in = dq->input(0);
    NPU_ASSIGN_OR_RETURN(const QdqParams p,
                         ReadQdqParams(*dq, 1, 2, dq->attrs().GetInt("axis", 1)));
    if (float_of_.count(in)) {  // an activation pair
      NPU_ASSIGN_OR_RETURN(ir::Tensor * f, FloatOf(*dq, 0, p));
      Replace(dq->output(0), f);
      ctx_.Count("fold-qdq.dequantize");
      return Status::Ok();
    }
    const ir::Tensor* source = nullptr;  // named after the model's constant (the weight)
    NPU_ASSIGN_OR_RETURN(const std::vector<int32_t> ints, ConstantInts(*dq, in, source));
    NPU_ASSIGN_OR_RETURN(ir::Tensor * c,
                         DequantizedConstant(source->name() + ".dq", source->shape(), ints, p));
    Replace(dq->output(0), c);
    ctx_.Count("fold-qdq.constant");
    return Status::Ok();
  }

  Status FoldQLinear(ir::Node* n) {
    const bool conv = n->kind() == OpKind::kQLinearConv;
    NPU_ASSIGN_OR_RETURN(const QdqParams px, ActivationParamsOf(*n, 1, 2));
    NPU_ASSIGN_OR_RETURN(ir::Tensor * x, FloatOf(*n, 0, px));
    const ir::Tensor* w = n->input(3);
    if (w == nullptr || !w->is_constant() || w->shape().size() != (conv ? 4u : 2u)) {
      return Unsupported(
          *n, conv ? "the weights must be a 4-D constant" : "input b must be a 2-D constant");
    }
    NPU_ASSIGN_OR_RETURN(const QdqParams pw, ReadQdqParams(*n, 4, 5, conv ? 0 : 1));
    NPU_ASSIGN_OR_RETURN(const QdqParams py, ActivationParamsOf(*n, 6, 7));
    NPU_ASSIGN_OR_RETURN(const std::vector<int32_t> w_ints, IntValues(*w));
    NPU_ASSIGN_OR_RETURN(ir::Tensor * wf,
                         DequantizedConstant(w->name() + ".dq", w->shape(), w_ints, pw));
    std::vector<ir::Tensor*> inputs = {x, wf};
    if (conv && n->num_inputs() > 8 && n->input(8) != nullptr) {
      NPU_ASSIGN_OR_RETURN(ir::Tensor * b, Bias(*n, px, pw));
      inputs.push_back(b);
    }
    // The float op takes over the int output's name, so reports pair it with the quantised one.
    ir::Tensor* y = n->output(0);
    const std::string name = y->name();
    g_.RenameTensor(y, g_.UniqueName(name + ".int"));
    model_name_[y] = name;
    ir::Attributes attrs = n->attrs();
    if (!conv) attrs.Set("transB", int64_t{0});
    ir::Node* f =
        g_.AddNode(conv ? OpKind::kConv : OpKind::kGemm, n->name(), inputs, {name}, attrs);
    NPU_TRY(SetParams(f->output(0), py.ToInt8()));
    float_of_[y] = f->output(0);
    params_[y] = py;
    ctx_.Count(conv ? "fold-qdq.qlinear-conv" : "fold-qdq.qlinear-matmul");
    return Status::Ok();
  }

  // QLinearConv's int32 bias as the float bias B * x_scale * w_scale[o] (ONNX), with that scale.
  StatusOr<ir::Tensor*> Bias(const ir::Node& n, const QdqParams& px, const QdqParams& pw) {
    const ir::Tensor* b = n.input(8);
    if (!b->is_constant() || b->dtype() != ir::DType::kInt32) {
      return Unsupported(n, "the bias must be an int32 constant");
    }
    QdqParams pb;
    pb.axis = 0;
    for (size_t o = 0; o < static_cast<size_t>(ir::NumElements(b->shape())); ++o) {
      pb.scale.push_back(px.scale[0] * pw.scale[pw.scale.size() == 1 ? 0 : o]);
      pb.zero_point.push_back(0);
    }
    NPU_ASSIGN_OR_RETURN(const std::vector<int32_t> ints, IntValues(*b));
    return DequantizedConstant(b->name() + ".dq", b->shape(), ints, pb);
  }

  Status EraseFolded() {
    std::vector<ir::Node*> nodes = g_.nodes();
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      ir::Node* n = *it;
      if (!IsQdqKind(n->kind())) continue;
      const ir::Tensor* out = n->output(0);
      if (!out->users().empty() || g_.IsGraphOutput(out)) {
        const ir::Node* reader = out->users().empty() ? n : out->users()[0];
        return Unsupported(*reader, fmt::format("reads the int8 value %{} directly (only "
                                                "DequantizeLinear and QLinear ops may)",
                                                out->name()));
      }
      g_.EraseNode(n);
    }
    return Status::Ok();
  }

  ir::Graph& g_;
  passes::PassContext& ctx_;
  std::unordered_map<const ir::Tensor*, ir::Tensor*> float_of_;    // int edge -> float value
  std::unordered_map<const ir::Tensor*, QdqParams> params_;        // int edge -> its parameters
  std::unordered_map<const ir::Tensor*, std::string> model_name_;  // renamed edge -> its name
};

}  // namespace

Status FoldQdq(ir::Graph& graph, passes::PassContext& ctx) { return QdqFolder(graph, ctx).Run(); }

StatusOr<ir::Graph> QuantizeImported(ir::Graph imported, const CalibrationSet& calibration,
                                     const QuantizeOptions& options, passes::PassContext* ctx) {
  passes::PassContext local;
  passes::PassContext& c = ctx != nullptr ? *ctx : local;
  NPU_TRY(FoldQdq(imported, c).WithContext("fold-qdq"));
  NPU_TRY(passes::RunPipeline(imported, {}, c));
  return Quantize(imported, calibration, options, &c);
}

}  // namespace npu::compiler::quantize
