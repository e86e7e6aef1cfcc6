// HostTensor and TensorRef helpers.
#include "compiler/interp/host_tensor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace npu::compiler::interp {

HostTensor HostTensor::Zeros(const TensorType& type) {
  HostTensor t;
  t.dtype = type.dtype;
  t.shape = type.shape;
  t.layout = type.layout;
  t.data.resize(static_cast<size_t>(ir::NumElements(type.shape)) * ir::DTypeBytes(type.dtype));
  return t;
}

TensorRef HostTensor::ref() const { return {dtype, shape, layout, data.data()}; }

TensorRef TensorRef::Of(const ir::Tensor& t) {
  TensorRef r = TypeOnly(t);
  if (t.is_constant()) r.data = t.bytes().data();
  return r;
}

TensorRef TensorRef::TypeOnly(const ir::Tensor& t) { return {t.dtype(), t.shape(), t.layout()}; }

Status CheckAllocatable(const TensorType& type, const std::string& what) {
  constexpr int64_t kMaxElements = int64_t{1} << 31;
  int64_t n = 1;
  for (int64_t d : type.shape) {
    if (d < 0) {
      return InvalidArgument(
          fmt::format("{} has a negative dimension: {}", what, ir::ShapeText(type.shape)));
    }
    if (d != 0 && n > kMaxElements / d) {
      return ResourceExhausted(
          fmt::format("{} {} has more than 2^31 elements", what, ir::ShapeText(type.shape)));
    }
    n *= d;
  }
  return Status::Ok();
}

double MaxRelativeError(const HostTensor& a, const HostTensor& reference) {
  if (a.shape != reference.shape || a.dtype != reference.dtype) {
    return std::numeric_limits<double>::infinity();
  }
  if (a.dtype != ir::DType::kFloat32) return a.data == reference.data ? 0.0 : 1.0;
  const std::span<const float> x = a.values<float>(), y = reference.values<float>();
  double max_diff = 0, scale = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double d = std::fabs(double(x[i]) - double(y[i]));
    if (!(d <= max_diff)) max_diff = d;  // NaN propagates as a failure
    scale = std::max(scale, std::fabs(double(y[i])));
  }
  if (max_diff == 0) return 0;
  return scale > 0 ? max_diff / scale : std::numeric_limits<double>::infinity();
}

}  // namespace npu::compiler::interp
