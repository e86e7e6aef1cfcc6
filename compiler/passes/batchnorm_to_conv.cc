// A BatchNormalization that fold-batchnorm could not fold (densenet's after a Concat, one after
// an Add) becomes a depthwise 1x1 Conv with the same per-channel affine map:
//   W[c, 0, 0, 0] = gamma[c] / sqrt(var[c] + eps)      B[c] = beta[c] - mean[c] * W[c]
// so the existing fusion merges a following ReLU and the back end needs no new op. Runs after
// fold-batchnorm; needs constant parameters and a 4-D input. After it, no such BN is left.
#include <cmath>

#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {

Status BatchNormToConv(ir::Graph& graph, PassContext& ctx) {
  bool changed = false;
  for (ir::Node* bn : graph.NodesOfKind(ir::OpKind::kBatchNormalization)) {
    ir::Tensor* x = bn->input(0);
    if (bn->num_outputs() != 1 || x == nullptr || x->shape().size() != 4) continue;
    std::optional<std::vector<float>> p[4];
    for (int i = 0; i < 4; ++i) p[i] = FloatConstant(bn->input(i + 1));
    if (!p[0] || !p[1] || !p[2] || !p[3]) continue;
    const int64_t c = static_cast<int64_t>(p[0]->size());
    const float eps = bn->attrs().GetFloat("epsilon", 1e-5f);
    std::vector<float> w(c), b(c);
    for (int64_t i = 0; i < c; ++i) {
      w[i] = (*p[0])[i] / std::sqrt((*p[3])[i] + eps);
      b[i] = (*p[1])[i] - (*p[2])[i] * w[i];
    }
    const std::string base = bn->output(0)->name();
    ir::Tensor* wt = graph.AddConstant(graph.UniqueName(base + ".dw_weight"), {c, 1, 1, 1}, w);
    ir::Tensor* bt = graph.AddConstant(graph.UniqueName(base + ".dw_bias"), {c}, b);
    ir::Attributes attrs;
    attrs.Set("kernel_shape", std::vector<int64_t>{1, 1});
    attrs.Set("strides", std::vector<int64_t>{1, 1});
    attrs.Set("dilations", std::vector<int64_t>{1, 1});
    attrs.Set("pads", std::vector<int64_t>{0, 0, 0, 0});
    attrs.Set("group", c);
    ir::Node* conv = graph.AddNode(ir::OpKind::kConv, bn->name(), {x, wt, bt},
                                   {graph.UniqueName(base + ".conv")}, attrs);
    ReplaceNode(graph, bn, conv->output(0));
    ctx.Count("batchnorm-to-conv.converted");
    changed = true;
  }
  return changed ? Retype(graph) : Status::Ok();
}

}  // namespace npu::compiler::passes
