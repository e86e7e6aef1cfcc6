// Constant folding: a node whose inputs are all constants, or a Shape node whose input's shape is
// known, is evaluated with the interpreter's kernel and replaced by a constant of the same name.
// One sweep in topological order folds whole chains (Shape -> Gather -> Unsqueeze -> Concat ->
// Reshape's shape operand, as older PyTorch exporters emit for x.view(x.size(0), -1)).
#include <fmt/format.h>

#include "compiler/interp/op_semantics.h"
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

using interp::HostTensor;
using interp::TensorRef;

// Larger results stay computed at run time rather than bloating the constants (64 MiB of f32).
constexpr int64_t kMaxFoldedElements = int64_t{1} << 24;

bool Foldable(const ir::Node& node) {
  if (node.num_inputs() == 0) return false;
  if (node.kind() == ir::OpKind::kShape) {
    return node.input(0) != nullptr && node.input(0)->dtype() != ir::DType::kUnknown;
  }
  for (const ir::Tensor* t : node.inputs()) {
    if (t != nullptr && !t->is_constant()) return false;
  }
  return true;
}

StatusOr<std::vector<HostTensor>> Evaluate(const ir::Node& node) {
  std::vector<TensorRef> in;
  for (const ir::Tensor* t : node.inputs()) in.push_back(t ? TensorRef::Of(*t) : TensorRef{});
  NPU_ASSIGN_OR_RETURN(const std::vector<interp::TensorType> types,
                       interp::InferOutputTypes(node, in));
  std::vector<HostTensor> out;
  for (const interp::TensorType& t : types) {
    NPU_TRY(interp::CheckAllocatable(t, "a folded value of node '" + node.name() + "'"));
    if (ir::NumElements(t.shape) > kMaxFoldedElements) return std::vector<HostTensor>{};
    out.push_back(HostTensor::Zeros(t));
  }
  NPU_TRY(interp::RunKernel(node, in, out));
  return out;
}

}  // namespace

Status FoldConstants(ir::Graph& graph, PassContext& ctx) {
  for (ir::Node* node : graph.nodes()) {
    if (!Foldable(*node)) continue;
    NPU_ASSIGN_OR_RETURN(const std::vector<HostTensor> values, Evaluate(*node));
    if (values.empty()) continue;  // too large to keep as a constant
    // Each output becomes a constant that takes over its name and its readers.
    std::vector<std::pair<ir::Tensor*, ir::Tensor*>> replaced;
    for (size_t i = 0; i < values.size(); ++i) {
      ir::Tensor* out = node->output(i);
      ir::Tensor* c = AddConstant(graph, out->name() + ".folded", values[i]);
      c->set_layout(values[i].layout);
      graph.ReplaceAllUsesWith(out, c);
      replaced.emplace_back(out, c);
    }
    graph.EraseNode(node);
    for (auto [out, c] : replaced) {
      const std::string name = out->name();
      graph.RenameTensor(out, graph.UniqueName(name + ".dead"));
      graph.RenameTensor(c, name);
    }
    ctx.Count("fold-constants.folded");
  }
  graph.RemoveUnusedTensors();
  return Status::Ok();
}

}  // namespace npu::compiler::passes
