// Element types, shapes, layouts and quantisation parameters of IR tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npu::compiler::ir {

// kFloat16: IEEE binary16, stored as its bits (uint16_t; hw/spec/fp16.h): FP16 graphs' activations
// and weights (docs/quantized-ir.md, "FP16 graphs").
enum class DType : uint8_t { kUnknown, kFloat32, kInt8, kUInt8, kInt32, kInt64, kFloat16 };
std::string_view DTypeName(DType dtype);  // "f32", "i8", "u8", "i32", "i64", "f16", "?"
size_t DTypeBytes(DType dtype);

// How a 4-D activation's dimensions are ordered. kNone: not a 4-D activation (weights, vectors,
// scalars, or 4-D tensors whose order is given by the op that uses them, like conv weights).
enum class Layout : uint8_t { kNone, kNCHW, kNHWC };
std::string_view LayoutName(Layout layout);

using Shape = std::vector<int64_t>;  // empty: a scalar, or not yet inferred (see Tensor)
int64_t NumElements(const Shape& shape);
std::string ShapeText(const Shape& shape);  // "[1,3,224,224]"

// real = scale * (q - zero_point); one entry per tensor, or one per channel along `axis`.
struct QuantParams {
  std::vector<float> scale;
  std::vector<int32_t> zero_point;
  int axis = -1;  // -1: per tensor

  bool empty() const { return scale.empty(); }
  bool per_channel() const { return axis >= 0; }
};

}  // namespace npu::compiler::ir
