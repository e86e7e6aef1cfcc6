// Layout assignment.
#include "compiler/onnx/layouts.h"

#include <algorithm>

namespace npu::compiler::onnx_detail {
namespace {

using ir::OpKind;

// Layout-aware ops (docs/ir.md): a 4-D result is NCHW whatever the input's tag.
bool MakesNchw(OpKind kind) {
  switch (kind) {
    case OpKind::kConv:
    case OpKind::kQLinearConv:
    case OpKind::kConvTranspose:
    case OpKind::kBatchNormalization:
    case OpKind::kMaxPool:
    case OpKind::kAveragePool:
    case OpKind::kGlobalAveragePool:
      return true;
    default:
      return false;
  }
}

// Ops whose result keeps an input's dim order (reductions only with keepdims).
bool KeepsOrder(const ir::Node& node) {
  if (ir::IsElementwise(node.kind())) return true;
  switch (node.kind()) {
    case OpKind::kReduceMean:
    case OpKind::kReduceSum:
    case OpKind::kReduceMax:
      return node.attrs().GetInt("keepdims", 1) != 0;
    case OpKind::kSlice:
    case OpKind::kSplit:
    case OpKind::kResize:
    case OpKind::kLayerNormalization:
    case OpKind::kCast:
    case OpKind::kSoftmax:
    case OpKind::kIdentity:
    case OpKind::kPad:
    case OpKind::kQuantizeLinear:
    case OpKind::kDequantizeLinear:
    case OpKind::kConcat:
      return true;
    default:
      return false;
  }
}

bool ReadsNchw(const ir::Node& node) {
  for (const ir::Tensor* in : node.inputs()) {
    if (in != nullptr && !in->is_constant() && in->layout() == ir::Layout::kNCHW) return true;
  }
  return false;
}

// tf2onnx feeds NHWC images through a Transpose to NCHW: such an input is not NCHW.
bool OnlyTransposed(const ir::Tensor& t) {
  return !t.users().empty() &&
         std::all_of(t.users().begin(), t.users().end(),
                     [](const ir::Node* user) { return user->kind() == OpKind::kTranspose; });
}

}  // namespace

void AssignLayouts(ir::Graph& graph, const RankMap& ranks) {
  for (ir::Tensor* in : graph.inputs()) {
    if (in->shape().size() == 4 && !OnlyTransposed(*in)) in->set_layout(ir::Layout::kNCHW);
  }
  for (ir::Node* node : graph.nodes()) {
    for (ir::Tensor* out : node->outputs()) {
      if (ranks.Get(out) != 4) continue;
      if (MakesNchw(node->kind()) || (KeepsOrder(*node) && ReadsNchw(*node))) {
        out->set_layout(ir::Layout::kNCHW);
      }
    }
  }
}

}  // namespace npu::compiler::onnx_detail
