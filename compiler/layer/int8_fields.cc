// Checking zero points and clamps.
#include "compiler/layer/int8_fields.h"

#include <fmt/format.h>

#include <utility>

namespace npu::compiler {

Status CheckInt8Fields(int32_t input_zero_point, int32_t output_zero_point, int32_t clamp_min,
                       int32_t clamp_max) {
  const std::pair<const char*, int32_t> int8s[] = {{"input_zero_point", input_zero_point},
                                                   {"output_zero_point", output_zero_point},
                                                   {"clamp_min", clamp_min},
                                                   {"clamp_max", clamp_max}};
  for (const auto& [field, value] : int8s) {
    if (value < -128 || value > 127) {
      return InvalidArgument(fmt::format("{} = {}: must be an int8 value", field, value));
    }
  }
  if (clamp_min > clamp_max) {
    return InvalidArgument(
        fmt::format("clamp_min = {} is above clamp_max = {}", clamp_min, clamp_max));
  }
  return Status::Ok();
}

}  // namespace npu::compiler
