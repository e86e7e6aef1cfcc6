// ReduceMean over the spatial axes (2 and 3) of a 4-D NCHW activation is a GlobalAveragePool
// (mnasnet and shufflenet end with x.mean([2, 3])); with keepdims=0 a Reshape to [N, C] follows.
// The NPU pools; it has no reductions. Runs before the layout pass (axes are NCHW's).
// After it, no ReduceMean averages exactly axes {2, 3} of a 4-D f32 tensor not tagged NHWC.
#include <algorithm>

#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

bool IsSpatialMean(const ir::Node& n) {
  const ir::Tensor* x = n.input(0);
  if (n.num_inputs() != 1 || x == nullptr || x->shape().size() != 4 ||
      x->dtype() != ir::DType::kFloat32 || x->layout() == ir::Layout::kNHWC) {
    return false;
  }
  std::vector<int64_t> axes = n.attrs().GetInts("axes");
  for (int64_t& a : axes) a = a < 0 ? a + 4 : a;
  std::sort(axes.begin(), axes.end());
  return axes == std::vector<int64_t>{2, 3};
}

}  // namespace

Status ReduceMeanToGlobalPool(ir::Graph& graph, PassContext& ctx) {
  bool changed = false;
  for (ir::Node* mean : graph.NodesOfKind(ir::OpKind::kReduceMean)) {
    if (!IsSpatialMean(*mean)) continue;
    ir::Tensor* x = mean->input(0);
    const std::string base = mean->output(0)->name();
    ir::Tensor* pooled = graph
                             .AddNode(ir::OpKind::kGlobalAveragePool, mean->name(), {x},
                                      {graph.UniqueName(base + ".gap")})
                             ->output(0);
    if (mean->attrs().GetInt("keepdims", 1) == 0) {
      const ir::Shape& s = x->shape();
      ir::Tensor* shape =
          graph.AddConstant<int64_t>(graph.UniqueName(base + ".shape"), {2}, {s[0], s[1]});
      pooled = graph
                   .AddNode(ir::OpKind::kReshape, mean->name() + ".flatten", {pooled, shape},
                            {graph.UniqueName(base + ".flat")})
                   ->output(0);
    }
    ReplaceNode(graph, mean, pooled);
    ctx.Count("reduce-mean-to-gap.replaced");
    changed = true;
  }
  return changed ? Retype(graph) : Status::Ok();
}

}  // namespace npu::compiler::passes
