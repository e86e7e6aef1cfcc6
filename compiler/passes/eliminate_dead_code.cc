// Dead-code elimination: walking backwards, a node none of whose outputs is read or is a graph
// output goes (so whole dead chains go in one sweep), then every tensor left without producer
// or reader (dead constants, e.g. BatchNorm parameters after folding).
#include "compiler/passes/passes.h"

namespace npu::compiler::passes {

Status EliminateDeadCode(ir::Graph& graph, PassContext& ctx) {
  const std::vector<ir::Node*> nodes = graph.nodes();
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    ir::Node* node = *it;
    bool dead = true;
    for (const ir::Tensor* out : node->outputs()) {
      dead = dead && out->users().empty() && !graph.IsGraphOutput(out);
    }
    if (!dead) continue;
    graph.EraseNode(node);
    ctx.Count("eliminate-dead-code.nodes");
  }
  ctx.Count("eliminate-dead-code.tensors", static_cast<int64_t>(graph.RemoveUnusedTensors()));
  return Status::Ok();
}

}  // namespace npu::compiler::passes
