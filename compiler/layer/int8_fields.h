// The int8 quantisation fields every layer carries: zero points and output clamps.
#pragma once

#include <cstdint>

#include "hw/spec/status.h"

namespace npu::compiler {

// Each of the four in [-128, 127], and clamp_min <= clamp_max; the error names the field.
Status CheckInt8Fields(int32_t input_zero_point, int32_t output_zero_point, int32_t clamp_min,
                       int32_t clamp_max);

}  // namespace npu::compiler
