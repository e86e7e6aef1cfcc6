// Which imported tensors are 4-D activations in NCHW order (Layout::kNCHW); all others, constants
// included, stay Layout::kNone.
#pragma once

#include "compiler/ir/graph.h"
#include "compiler/onnx/ranks.h"

namespace npu::compiler::onnx_detail {

// Rules, in node order:
//   - a graph input of rank 4 is NCHW, unless Transposes are all that read it (tf2onnx's
//     NHWC image inputs);
//   - the output of Conv, QLinearConv, MaxPool, AveragePool of rank 4 is NCHW;
//   - the output of an op that keeps its data input's dim order (BatchNormalization, Relu, Clip,
//     Add/Sub/Mul/Div, Identity, Pad, QuantizeLinear, DequantizeLinear, GlobalAveragePool,
//     Concat) is NCHW when it has rank 4 and one of its non-constant inputs is NCHW.
// Transpose, Reshape, Flatten, Squeeze/Unsqueeze and the rest produce kNone: their result's dim
// order is not NCHW in general.
void AssignLayouts(ir::Graph& graph, const RankMap& ranks);

}  // namespace npu::compiler::onnx_detail
