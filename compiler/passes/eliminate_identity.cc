// Identity elimination: nodes whose output equals their first input (same element type, shape,
// layout and values) are bypassed: Identity; Reshape, Flatten, Squeeze, Unsqueeze that keep the
// shape; Transpose with the identity permutation; Pad with all-zero pads; Concat of one input;
// Clip without bounds. Dropout imports as Identity (inference), so it goes too. A chain of view
// ops (Reshape, Flatten, Squeeze, Unsqueeze; exporters emit Unsqueeze -> Squeeze -> Reshape)
// first collapses into one Reshape of the chain's input to the final shape, which then goes too
// if that shape is the input's.
#include <algorithm>
#include <limits>

#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

bool SameType(const ir::Tensor& a, const ir::Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && a.layout() == b.layout();
}

bool IdentityPerm(const std::vector<int64_t>& perm, size_t rank) {
  if (perm.size() != rank) return rank <= 1 && perm.empty();
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

bool ZeroPads(const ir::Tensor* pads) {
  if (pads == nullptr || !pads->is_constant() || pads->dtype() != ir::DType::kInt64) return false;
  for (int64_t p : pads->data<int64_t>()) {
    if (p != 0) return false;
  }
  return true;
}

bool IsNoOp(const ir::Node& node) {
  const ir::Tensor* in = node.input(0);
  if (in == nullptr || node.num_outputs() != 1 || !SameType(*in, *node.output(0))) return false;
  switch (node.kind()) {
    case ir::OpKind::kIdentity:
    case ir::OpKind::kReshape:
    case ir::OpKind::kFlatten:
    case ir::OpKind::kSqueeze:
    case ir::OpKind::kUnsqueeze:
      return true;  // same shape: the values pass unchanged
    case ir::OpKind::kTranspose:
      return IdentityPerm(node.attrs().GetInts("perm"), in->shape().size());
    case ir::OpKind::kPad:
      return ZeroPads(node.input(1));
    case ir::OpKind::kConcat:
      return node.num_inputs() == 1;
    case ir::OpKind::kClip: {
      const auto bounds = ClipBounds(node);
      constexpr float kInf = std::numeric_limits<float>::infinity();
      return bounds && bounds->first == -kInf && bounds->second == kInf;
    }
    default:
      return false;
  }
}

bool IsView(ir::OpKind kind) {
  return kind == ir::OpKind::kReshape || kind == ir::OpKind::kFlatten ||
         kind == ir::OpKind::kSqueeze || kind == ir::OpKind::kUnsqueeze;
}

// Rewrites view op `node` reading view op `prev` as Reshape(prev's input, node's shape); erases
// `prev` if nothing else reads it. Returns whether it did.
bool CollapseViewChain(ir::Graph& g, ir::Node* node) {
  ir::Node* prev = node->input(0) ? node->input(0)->producer() : nullptr;
  if (!IsView(node->kind()) || prev == nullptr || !IsView(prev->kind())) return false;
  ir::Tensor* in = prev->input(0);
  ir::Tensor* out = node->output(0);
  const ir::Shape& shape = out->shape();
  ir::Tensor* target = g.AddConstant<int64_t>(g.UniqueName(out->name() + ".shape"),
                                              {static_cast<int64_t>(shape.size())}, shape);
  ir::Attributes attrs;
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) attrs.Set("allowzero", int64_t{1});
  node->set_kind(ir::OpKind::kReshape);
  node->attrs() = attrs;
  g.SetNodeInput(node, 0, in);
  g.SetNodeInput(node, 1, target);
  out->set_layout(shape == in->shape() ? in->layout() : ir::Layout::kNone);  // Reshape's rule
  if (prev->output(0)->users().empty() && !g.IsGraphOutput(prev->output(0))) g.EraseNode(prev);
  return true;
}

}  // namespace

Status EliminateIdentity(ir::Graph& graph, PassContext& ctx) {
  for (ir::Node* node : graph.nodes()) {
    if (CollapseViewChain(graph, node)) ctx.Count("eliminate-identity.view-chain");
    if (!IsNoOp(*node) || !CanReplace(graph, *node, node->input(0))) continue;
    ctx.Count(std::string("eliminate-identity.") + std::string(ir::OpName(node->kind())));
    ReplaceNode(graph, node, node->input(0));
  }
  graph.RemoveUnusedTensors();
  return Status::Ok();
}

}  // namespace npu::compiler::passes
