// Quantised ONNX models (QDQ: QuantizeLinear/DequantizeLinear around float ops, as PyTorch and
// onnxruntime export them; and QLinearConv/QLinearMatMul) into the quantised IR, keeping the
// model's scales and zero points: nothing the model quantises is recalibrated, and no Q/DQ is
// left to run as a float step.
//
//   ir::Graph g = *onnx::ImportOnnxFile("model_qdq.onnx");
//   StatusOr<ir::Graph> q = QuantizeImported(std::move(g), calibration, options);
//
// FoldQdq is the pass: it turns the imported graph into the plain float model whose tensors
// carry the model's QuantParams (int8 form: uint8 zero points shifted by -128, same scale, the
// same reals). The front-end pipeline then runs on it as on any float model, and Quantize() uses
// the parameters it finds, calibrating only tensors the model leaves unquantised (e.g. a float
// classifier after the last QuantizeLinear). docs/quantization.md has the details.
#pragma once

#include "compiler/ir/graph.h"
#include "compiler/passes/pass_context.h"
#include "compiler/quantize/quantize.h"
#include "hw/spec/status.h"

namespace npu::compiler::quantize {

// 1. An activation QuantizeLinear(x) -> DequantizeLinear pair disappears; x carries the pair's
//    parameters (so does the input of a ReLU chain ending in x, which the pipeline fuses), and a
//    graph input read by QuantizeLinear becomes the int8 input with its parameters.
// 2. DequantizeLinear of a constant (int8/uint8 weights, int32 bias) or of QuantizeLinear of a
//    constant becomes the float constant of the dequantised values, carrying the parameters.
// 3. QLinearConv / QLinearMatMul become Conv / Gemm over the dequantised constants, their output
//    carrying y_scale / y_zero_point.
// Unimplemented (naming the node) for what has no quantised-IR form: per-channel activation
// quantisation, Q/DQ pairs with different parameters, int8 values read by other ops.
Status FoldQdq(ir::Graph& graph, passes::PassContext& ctx);

// FoldQdq, the front-end pipeline, then Quantize(). `calibration` (in the imported graph's input
// shapes) is needed only for tensors the model does not quantise itself.
StatusOr<ir::Graph> QuantizeImported(ir::Graph imported, const CalibrationSet& calibration,
                                     const QuantizeOptions& options = {},
                                     passes::PassContext* ctx = nullptr);

}  // namespace npu::compiler::quantize
