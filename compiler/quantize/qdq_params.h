// Reading the quantisation operands of ONNX QuantizeLinear, DequantizeLinear, QLinearConv and
// QLinearMatMul (constant scale and zero point, per tensor or per axis), and evaluating them on
// constants exactly as ONNX does (float32 arithmetic, round half to even, saturation).
// Internal to compiler/quantize (qdq_fold.cc).
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::quantize {

struct QdqParams {
  std::vector<float> scale;
  std::vector<int32_t> zero_point;  // as given: 0..255 when unsigned
  bool is_unsigned = false;         // uint8 (also ONNX's default when the zero point is absent)
  int64_t axis = -1;                // -1: per tensor; else the axis the vectors run along

  bool operator==(const QdqParams&) const = default;
  // The int8 form (uint8 values shifted by -128, same scale: the same reals).
  ir::QuantParams ToInt8() const;
};

// The scale (input `scale_index`) and zero point (`zp_index`, optional) of `node`, both constants;
// `axis` applies when they hold more than one value. InvalidArgument naming the node otherwise.
StatusOr<QdqParams> ReadQdqParams(const ir::Node& node, size_t scale_index, size_t zp_index,
                                  int64_t axis);

// The values of an i8, u8 or i32 constant as int32.
StatusOr<std::vector<int32_t>> IntValues(const ir::Tensor& t);

// ONNX QuantizeLinear of a float constant `x` with `p`: clamp(round_half_even(x / s) + zp).
StatusOr<std::vector<int32_t>> QuantizeConstant(const ir::Tensor& x, const QdqParams& p);

// ONNX DequantizeLinear of integer values of shape `shape`: (q - zp) * s in float32.
StatusOr<std::vector<float>> DequantizeValues(const std::vector<int32_t>& q, const ir::Shape& shape,
                                              const QdqParams& p);

}  // namespace npu::compiler::quantize
