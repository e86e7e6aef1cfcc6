// Folds BatchNormalization into the Conv that feeds it, when nothing else reads the conv's output
// (otherwise that reader would see the rescaled values). With s = gamma / sqrt(var + eps):
//   W'[o, ...] = W[o, ...] * s[o]        b'[o] = (b[o] - mean[o]) * s[o] + beta[o]
// The weights are OIHW whatever the activation layout, so this works before or after the layout
// pass. After it, no BatchNormalization follows a single-use Conv with constant parameters.
#include <cmath>

#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

// The Conv feeding `bn` if it can absorb it, else nullptr.
ir::Node* SoleConvProducer(const ir::Graph& g, const ir::Node& bn) {
  const ir::Tensor* x = bn.input(0);
  ir::Node* conv = x ? x->producer() : nullptr;
  if (conv == nullptr || conv->kind() != ir::OpKind::kConv || SoleUser(g, x) != &bn) {
    return nullptr;
  }
  const bool bias_ok = conv->input(2) == nullptr || FloatConstant(conv->input(2)).has_value();
  return FloatConstant(conv->input(1)) && bias_ok ? conv : nullptr;
}

}  // namespace

Status FoldBatchNorm(ir::Graph& graph, PassContext& ctx) {
  for (ir::Node* bn : graph.NodesOfKind(ir::OpKind::kBatchNormalization)) {
    ir::Node* conv = SoleConvProducer(graph, *bn);
    if (conv == nullptr || bn->num_outputs() != 1 || !CanReplace(graph, *bn, conv->output(0))) {
      continue;  // no match: not an error
    }
    std::optional<std::vector<float>> p[4];
    for (int i = 0; i < 4; ++i) p[i] = FloatConstant(bn->input(i + 1));
    if (!p[0] || !p[1] || !p[2] || !p[3]) continue;
    const std::vector<float>&gamma = *p[0], &beta = *p[1], &mean = *p[2], &var = *p[3];
    const float eps = bn->attrs().GetFloat("epsilon", 1e-5f);
    // 1. Rescale the weights per output channel.
    const ir::Tensor* w = conv->input(1);
    std::vector<float> weights = *FloatConstant(w);
    const size_t out_c = static_cast<size_t>(w->shape()[0]), per = weights.size() / out_c;
    if (out_c == 0 || gamma.size() != out_c) continue;
    std::vector<float> bias =
        conv->input(2) ? *FloatConstant(conv->input(2)) : std::vector<float>(out_c, 0.0f);
    for (size_t o = 0; o < out_c; ++o) {
      const float s = gamma[o] / std::sqrt(var[o] + eps);
      for (size_t k = 0; k < per; ++k) weights[o * per + k] *= s;
      bias[o] = (bias[o] - mean[o]) * s + beta[o];
    }
    // 2. New constants (the old ones may be shared), then the conv takes the BN's place.
    ir::Tensor* nw = graph.AddConstant(graph.UniqueName(w->name() + ".bn"), w->shape(), weights);
    ir::Tensor* nb = graph.AddConstant(graph.UniqueName(conv->output(0)->name() + ".bias"),
                                       {static_cast<int64_t>(out_c)}, bias);
    graph.SetNodeInput(conv, 1, nw);
    graph.SetNodeInput(conv, 2, nb);
    ReplaceNode(graph, bn, conv->output(0));
    ctx.Count("fold-batchnorm.folded");
  }
  graph.RemoveUnusedTensors();
  return Status::Ok();
}

}  // namespace npu::compiler::passes
