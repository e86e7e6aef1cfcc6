// Which imported tensors are 4-D activations in NCHW order (Layout::kNCHW); all others, constants
// included, stay Layout::kNone.
#pragma once

#include "compiler/ir/graph.h"
#include "compiler/onnx/ranks.h"

namespace npu::compiler::onnx_detail {

// Rules, in node order (the same as the passes' layout rules, docs/ir.md):
//   - a graph input of rank 4 is NCHW, unless Transposes are all that read it (tf2onnx's
//     NHWC image inputs);
//   - the rank-4 output of a layout-aware op (Conv, QLinearConv, BatchNormalization, MaxPool,
//     AveragePool, GlobalAveragePool) is NCHW;
//   - the rank-4 output of an op that keeps its input's dim order (Relu, Clip, Softmax,
//     Add/Sub/Mul/Div, Identity, Pad, QuantizeLinear, DequantizeLinear, Concat) is NCHW when one
//     of its non-constant inputs is.
// Transpose, Reshape, Flatten, Squeeze/Unsqueeze and the rest produce kNone: their result's dim
// order is not NCHW in general.
void AssignLayouts(ir::Graph& graph, const RankMap& ranks);

}  // namespace npu::compiler::onnx_detail
