// Host-side quantisation of inputs and dequantisation of outputs.
#include "compiler/qinterp/host_io.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "compiler/qinterp/check.h"
#include "hw/spec/fp16.h"

namespace npu::compiler::qinterp {
namespace {

using interp::HostTensor;

bool IsNchwOf(const ir::Shape& nchw, const ir::Shape& nhwc) {
  return nchw.size() == 4 && nhwc.size() == 4 && nchw[0] == nhwc[0] && nchw[1] == nhwc[3] &&
         nchw[2] == nhwc[1] && nchw[3] == nhwc[2];
}

// Reorders a float [N,A,B,C] -> [N,B,C,A] (to_nhwc) or [N,B,C,A] -> [N,A,B,C].
std::vector<float> Permute4D(std::span<const float> v, const ir::Shape& from, bool to_nhwc) {
  std::vector<float> out(v.size());
  const int64_t n = from[0], d1 = from[1], d2 = from[2], d3 = from[3];
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t i = 0; i < d1; ++i) {
      for (int64_t j = 0; j < d2; ++j) {
        for (int64_t k = 0; k < d3; ++k) {
          const int64_t src = ((b * d1 + i) * d2 + j) * d3 + k;
          // NCHW (i=c, j=h, k=w) -> NHWC, or NHWC (i=h, j=w, k=c) -> NCHW.
          const int64_t dst =
              to_nhwc ? ((b * d2 + j) * d3 + k) * d1 + i : ((b * d3 + k) * d1 + i) * d2 + j;
          out[dst] = v[src];
        }
      }
    }
  }
  return out;
}

}  // namespace

int8_t QuantizeValue(float x, float scale, int32_t zero_point) {
  const float q = std::nearbyint(x / scale) + static_cast<float>(zero_point);
  return static_cast<int8_t>(std::clamp(q, -128.0f, 127.0f));
}

float DequantizeValue(int8_t q, float scale, int32_t zero_point) {
  return scale * static_cast<float>(int32_t{q} - zero_point);
}

StatusOr<std::vector<int8_t>> QuantizeInput(const ir::Tensor& input, const HostTensor& value) {
  const bool fp16 = input.dtype() == ir::DType::kFloat16;
  if (!fp16) NPU_TRY(CheckActivationParams(input));
  if (value.dtype != ir::DType::kFloat32) {
    return InvalidArgument(fmt::format("input '{}': {} values given, float32 expected",
                                       input.name(), ir::DTypeName(value.dtype)));
  }
  std::span<const float> v = value.values<float>();
  std::vector<float> reordered;
  if (value.shape != input.shape()) {
    if (!IsNchwOf(value.shape, input.shape())) {
      return InvalidArgument(fmt::format(
          "input '{}': a {} value given, the quantised graph takes {} (or its NCHW order)",
          input.name(), ir::ShapeText(value.shape), ir::ShapeText(input.shape())));
    }
    reordered = Permute4D(v, value.shape, /*to_nhwc=*/true);
    v = reordered;
  }
  if (fp16) {  // each value rounded to nearest even, 2 bytes
    std::vector<int8_t> bytes(v.size() * 2);
    for (size_t i = 0; i < v.size(); ++i) spec::StoreFp16(bytes.data(), i, spec::FloatToFp16(v[i]));
    return bytes;
  }
  const float scale = input.quant().scale[0];
  const int32_t zp = input.quant().zero_point[0];
  std::vector<int8_t> q(v.size());
  for (size_t i = 0; i < v.size(); ++i) q[i] = QuantizeValue(v[i], scale, zp);
  return q;
}

HostTensor DequantizeOutput(const ir::Tensor& output, std::span<const int8_t> values) {
  if (output.dtype() == ir::DType::kFloat16) {  // exact
    std::vector<float> f(values.size() / 2);
    for (size_t i = 0; i < f.size(); ++i) f[i] = spec::Fp16ToFloat(spec::LoadFp16(values.data(), i));
    return HostTensor::FromValues(output.shape(), f, output.layout());
  }
  const float scale = output.quant().scale.empty() ? 1.0f : output.quant().scale[0];
  const int32_t zp = output.quant().zero_point.empty() ? 0 : output.quant().zero_point[0];
  std::vector<float> f(values.size());
  for (size_t i = 0; i < values.size(); ++i) f[i] = DequantizeValue(values[i], scale, zp);
  return HostTensor::FromValues(output.shape(), f, output.layout());
}

StatusOr<HostTensor> ToShape(const HostTensor& value, const ir::Shape& shape) {
  if (value.shape == shape) return value;
  if (value.dtype != ir::DType::kFloat32 || !IsNchwOf(shape, value.shape)) {
    return InvalidArgument(fmt::format("cannot view a {} value as {}", ir::ShapeText(value.shape),
                                       ir::ShapeText(shape)));
  }
  return HostTensor::FromValues(shape, Permute4D(value.values<float>(), value.shape, false),
                                ir::Layout::kNCHW);
}

}  // namespace npu::compiler::qinterp
