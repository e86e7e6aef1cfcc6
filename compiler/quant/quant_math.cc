// TOSA-style scale quantisation.
#include "compiler/quant/quant_math.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hw/spec/arith.h"

namespace npu::compiler {

StatusOr<QuantizedMultiplier> QuantizeMultiplier(double real_multiplier) {
  if (!std::isfinite(real_multiplier) || !(real_multiplier > 0.0)) {
    return InvalidArgument(fmt::format(
        "scale {} cannot be quantised: it must be positive and finite", real_multiplier));
  }
  // 1. real = mantissa * 2^exponent with mantissa in [0.5, 1).
  int exponent = 0;
  const double mantissa = std::frexp(real_multiplier, &exponent);
  // 2. The mantissa as a Q31 integer; rounding can carry into 2^31, then renormalise.
  int64_t q = std::llround(mantissa * static_cast<double>(int64_t{1} << 31));
  if (q == (int64_t{1} << 31)) {
    q /= 2;
    ++exponent;
  }
  // 3. real = q * 2^(exponent - 31), so shift = 31 - exponent.
  const int shift = 31 - exponent;
  if (shift < spec::kMinShift || shift > spec::kMaxShift) {
    return InvalidArgument(fmt::format(
        "scale {} cannot be quantised: it needs shift {}, outside {}..{} (representable scales "
        "are in [2^-32, 2^30))",
        real_multiplier, shift, spec::kMinShift, spec::kMaxShift));
  }
  return QuantizedMultiplier{static_cast<int32_t>(q), shift};
}

double DequantizeMultiplier(const QuantizedMultiplier& q) {
  return std::ldexp(static_cast<double>(q.multiplier), -q.shift);
}

int32_t QuantizeToInt8(double real, float scale, int32_t zero_point) {
  const double q = std::round(real / static_cast<double>(scale)) + zero_point;
  return static_cast<int32_t>(std::clamp(q, -128.0, 127.0));
}

ClampRange NoActivationClamp() { return {-128, 127}; }

ClampRange ReluClamp(int32_t output_zero_point) {
  return {std::clamp(output_zero_point, -128, 127), 127};
}

ClampRange Relu6Clamp(float output_scale, int32_t output_zero_point) {
  return {std::clamp(output_zero_point, -128, 127),
          QuantizeToInt8(6.0, output_scale, output_zero_point)};
}

}  // namespace npu::compiler
