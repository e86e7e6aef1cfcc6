// Turning real-valued scales into the integer parameters the vector unit applies (TOSA
// conventions, hw/spec/arith.h): a scale becomes multiplier * 2^-shift, and activation functions
// become clamps in the quantised output domain.
#pragma once

#include <cstdint>

#include "hw/spec/status.h"

namespace npu::compiler {

struct QuantizedMultiplier {
  int32_t multiplier;  // in [2^30, 2^31)
  int32_t shift;       // in [1, 62]
};

// real_multiplier ~= multiplier * 2^-shift (TOSA: frexp, then round the mantissa to 31 bits).
// Fails for non-positive or non-finite values and for magnitudes outside
// [2^-32, 2^30), which no shift in 1..62 can represent with a normalised multiplier.
StatusOr<QuantizedMultiplier> QuantizeMultiplier(double real_multiplier);

// The real value a quantised multiplier stands for (for reports and tests).
double DequantizeMultiplier(const QuantizedMultiplier& q);

// round(real / scale) + zero_point, saturated to int8. scale must be positive.
int32_t QuantizeToInt8(double real, float scale, int32_t zero_point);

struct ClampRange {
  int32_t min;
  int32_t max;
};
ClampRange NoActivationClamp();                                        // [-128, 127]
ClampRange ReluClamp(int32_t output_zero_point);                       // [zp, 127]
ClampRange Relu6Clamp(float output_scale, int32_t output_zero_point);  // [zp, q(6.0)]

}  // namespace npu::compiler
