// Gemms over images as 1x1 convolutions (image_gemms.h).
#include "compiler/network/image_gemms.h"

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/network/fusion_nodes.h"

namespace npu::compiler {
namespace {

using ir::Node;
using ir::Tensor;

// The Gemm's [N, K] weights as [N, 1, 1, K] (OHWI): the same bytes and per-channel scales.
Tensor* ConvolutionWeights(ir::Graph& g, const Tensor& w) {
  Tensor* t = g.AddConstant<int8_t>(g.UniqueName(w.name() + "#1x1"),
                                    {w.shape()[0], 1, 1, w.shape()[1]}, {});
  t->set_bytes(w.dtype(), w.bytes());
  t->set_layout(w.layout());
  t->quant() = w.quant();
  return t;
}

// The convolution's attributes: the Gemm's (its requantisation, clamp, activation and weight
// bits) with a 1x1 window for the matrix layout.
ir::Attributes ConvolutionAttributes(ir::Attributes a) {
  for (const char* gemm_only : {"transA", "transB", "alpha", "beta"}) a.Erase(gemm_only);
  a.Set("kernel_shape", std::vector<int64_t>{1, 1});
  a.Set("strides", std::vector<int64_t>{1, 1});
  a.Set("pads", std::vector<int64_t>{0, 0, 0, 0});
  a.Set("dilations", std::vector<int64_t>{1, 1});
  a.Set("group", int64_t{1});
  return a;
}

}  // namespace

ir::Graph ImageGemmsAsConvolutions(const ir::Graph& quantized) {
  ir::Graph g = quantized.Clone();
  int rewritten = 0;
  for (Node* gemm : g.NodesOfKind(ir::OpKind::kGemm)) {
    Tensor* y = gemm->output(0);
    if (gemm->num_inputs() != 3 || !IsImage(gemm->input(0)) || !IsImage(y)) continue;
    Node* conv =
        g.AddNode(ir::OpKind::kFusedConv, gemm->name(),
                  {gemm->input(0), ConvolutionWeights(g, *gemm->input(1)), gemm->input(2)},
                  {g.UniqueName(y->name() + "#1x1")}, ConvolutionAttributes(gemm->attrs()));
    ReplaceByOutputOf(g, y, conv, {gemm});
    ++rewritten;
  }
  if (rewritten > 0) NPU_CHECK(g.SortTopologically().ok());
  return g;
}

}  // namespace npu::compiler
