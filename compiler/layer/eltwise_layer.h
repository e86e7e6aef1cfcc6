// One quantised elementwise layer, as the vector unit's ELTWISE computes it: an int8 NHWC tensor
// a combined with b by add (a residual connection; a negative b multiplier subtracts), mul, max or
// min, both operands rescaled to the output scale, then the output zero point and a clamp (ReLU).
// b has a's shape, or is broadcast: one value per channel (1x1xC), per pixel (HxWx1) or one
// scalar; b is either an activation (the layer's second input) or a constant the layer carries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct EltwiseLayer {
  std::string name;
  spec::EltwiseOp op = spec::EltwiseOp::kAdd;
  uint32_t h = 1, w = 1, c = 1;  // NHWC shape of a and the output (batch 1)
  spec::Broadcast broadcast = spec::Broadcast::kNone;
  // Empty: b is an activation. Otherwise b's BElements() values (e.g. a per-channel vector).
  std::vector<int8_t> b_constant;  // as bytes: BElements() * ElementBytes()
  int32_t a_zero_point = 0, b_zero_point = 0, output_zero_point = 0;
  // add, max, min: a_multiplier / 2^shift = a_scale / out_scale, likewise b (int16);
  // mul: a_multiplier / 2^shift = a_scale * b_scale / out_scale and b_multiplier 0.
  int32_t a_multiplier = 1, b_multiplier = 1;
  int32_t shift = 1;  // 1..62
  int32_t clamp_min = -128, clamp_max = 127;
  // FP16 (docs/fp16-semantics.md): 2 bytes an element (b_constant too), the int8 fields above
  // unused; fp16_relu makes a result below 0 +0. With int8_out the FP16 result is quantised to
  // an int8 output (1 byte an element): output_zero_point plus the result times the FP32 value
  // whose bits a_multiplier holds (spec::Fp16InverseScale of the output's scale), clamped; a
  // scalar b of FP16 -0 makes it the FP16 -> int8 conversion of a mixed-precision network.
  bool fp16 = false, fp16_relu = false, int8_out = false;

  uint64_t ElementBytes() const { return fp16 ? 2 : 1; }  // of a and b
  uint64_t OutputElementBytes() const { return fp16 && !int8_out ? 2 : 1; }
  uint64_t Elements() const { return uint64_t{h} * w * c; }
  // b's values: Elements(), c, h*w or 1 by broadcast.
  uint64_t BElements() const;
  bool b_is_constant() const { return !b_constant.empty(); }
  const char* OpName() const;  // "add", "mul", "max", "min"
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// Fields within what ELTWISE encodes (8-bit zero points, 16-bit b multiplier, shift 1..62, at
// most 65535 channels when b is per channel or per pixel), b_multiplier 0 for mul, and a
// constant b of BElements() values; the error names the layer and the field.
Status CheckEltwiseLayer(const EltwiseLayer& layer);

}  // namespace npu::compiler
