// CheckAddLayer.
#include "compiler/layer/add_layer.h"

#include <fmt/format.h>

#include <tuple>

#include "hw/spec/arith.h"

namespace npu::compiler {

Status CheckAddLayer(const AddLayer& l) {
  const std::tuple<const char*, int64_t, int64_t, int64_t> fields[] = {
      {"h", l.h, 1, UINT32_MAX},
      {"w", l.w, 1, UINT32_MAX},
      {"c", l.c, 1, UINT32_MAX},
      {"a_zero_point", l.a_zero_point, -128, 127},
      {"b_zero_point", l.b_zero_point, -128, 127},
      {"output_zero_point", l.output_zero_point, -128, 127},
      {"a_multiplier", l.a_multiplier, -32768, 32767},
      {"b_multiplier", l.b_multiplier, -32768, 32767},
      {"shift", l.shift, spec::kMinShift, spec::kMaxShift},
      {"clamp_min", l.clamp_min, -128, 127},
      {"clamp_max", l.clamp_max, -128, 127}};
  for (const auto& [field, value, lo, hi] : fields) {
    if (value < lo || value > hi) {
      return InvalidArgument(fmt::format("layer '{}': {} = {}: must be between {} and {}",
                                         l.DisplayName(), field, value, lo, hi));
    }
  }
  if (l.clamp_min > l.clamp_max) {
    return InvalidArgument(fmt::format("layer '{}': clamp_min = {} is above clamp_max = {}",
                                       l.DisplayName(), l.clamp_min, l.clamp_max));
  }
  return Status::Ok();
}

}  // namespace npu::compiler
