// One quantised elementwise addition of two same-shaped int8 tensors (a residual connection), as
// the vector unit's ADD computes it: both inputs rescaled to the output scale by 16-bit
// multipliers over a common shift, then the output zero point and a clamp (ReLU).
#pragma once

#include <cstdint>
#include <string>

#include "hw/spec/status.h"

namespace npu::compiler {

struct AddLayer {
  std::string name;
  uint32_t h = 1, w = 1, c = 1;  // NHWC shape of a, b and the output (batch 1)
  int32_t a_zero_point = 0, b_zero_point = 0, output_zero_point = 0;
  int32_t a_multiplier = 1, b_multiplier = 1;  // int16 range
  int32_t shift = 1;                           // 1..62
  int32_t clamp_min = -128, clamp_max = 127;

  uint64_t Elements() const { return uint64_t{h} * w * c; }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// Fields within what ADD encodes (8-bit zero points, 16-bit multipliers, shift 1..62).
Status CheckAddLayer(const AddLayer& layer);

}  // namespace npu::compiler
