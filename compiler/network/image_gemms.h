// A Gemm over an image (convnext's Linear layers on its channels-last [1, H, W, C] blocks)
// multiplies every pixel's C values by the weights: a 1x1 convolution of the image
// (docs/quantized-ir.md). The row-strip and channel-group rewrites (row_strips.h,
// channel_groups.h) split convolutions, so before them such a Gemm becomes one.
#pragma once

#include "compiler/ir/graph.h"

namespace npu::compiler {

// `g` (a checked quantised graph: a Gemm's weights are constant [N, K]) with every int8 Gemm
// whose input and output are images (IsImage) rewritten as a 1x1 convolution of the same name,
// weights [N, 1, 1, K] (the Gemm's [N, K] bytes), bias, requantisation, clamp and weight bits:
// the same bytes out. The graph the row-strip rewrite looks for pairs in and splits.
ir::Graph ImageGemmsAsConvolutions(const ir::Graph& g);

}  // namespace npu::compiler
