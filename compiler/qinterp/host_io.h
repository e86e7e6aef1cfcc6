// The host side of a quantised graph: quantising float inputs with a graph input's parameters and
// dequantising outputs, as docs/quantized-ir.md prescribes (ONNX QuantizeLinear: float32
// division, round half to even, saturate; real = scale * (q - zero_point)).
//
// The quantised graph's 4-D inputs and outputs are NHWC where the float model's were NCHW (the
// quantiser drops the layout pass's border transposes), so the conversions here also transpose:
// an NCHW [1,C,H,W] float input for an NHWC [1,H,W,C] graph input is reordered first.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::qinterp {

// q = clamp(round_half_even(x / scale) + zero_point, -128, 127), the division in float32.
int8_t QuantizeValue(float x, float scale, int32_t zero_point);
float DequantizeValue(int8_t q, float scale, int32_t zero_point);

// `value` (float32) as the int8 buffer for quantised graph input `input`: its shape, or the NCHW
// order of an NHWC input. Fails naming the input and both shapes otherwise. An f16 input (an FP16
// graph) takes each value rounded to FP16, 2 bytes an element.
StatusOr<std::vector<int8_t>> QuantizeInput(const ir::Tensor& input,
                                            const interp::HostTensor& value);

// The float values of quantised output `output` in its stored shape (NHWC for 4-D); of an f16
// output, its FP16 elements (2 bytes each) exactly.
interp::HostTensor DequantizeOutput(const ir::Tensor& output, std::span<const int8_t> values);

// `value` reordered to `shape`: unchanged if the shapes are equal, NHWC -> NCHW if `value` is
// [1,H,W,C] and `shape` is [1,C,H,W]; InvalidArgument otherwise. (Compares a quantised graph's
// output with the float model's.)
StatusOr<interp::HostTensor> ToShape(const interp::HostTensor& value, const ir::Shape& shape);

}  // namespace npu::compiler::qinterp
