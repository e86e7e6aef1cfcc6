// One layer normalisation, as the vector unit's LNORM computes it: every pixel of an int8 NHWC
// tensor (its c channels) normalised to zero mean and unit variance, scaled by gamma, offset by
// beta and requantised per channel (spec::LayerNormRows). The channels' constants are LNORM's
// parameter records, which the layer carries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/spec/layer_norm.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct NormLayer {
  std::string name;
  uint32_t h = 1, w = 1, c = 1;  // NHWC shape of the input and the output (batch 1)
  std::vector<spec::LayerNormChannel> channels;  // c of them
  int32_t in_zero_point = 0, out_zero_point = 0;
  uint32_t eps_term = 0;  // N^2 eps / s_x^2, rounded (docs/quantized-ir.md)
  int32_t clamp_min = -128, clamp_max = 127;

  uint64_t Pixels() const { return uint64_t{h} * w; }
  uint64_t Elements() const { return Pixels() * c; }
  uint64_t ParamBytes() const;               // c LNORM records
  std::vector<uint8_t> ParamRecords() const;  // as LNORM reads them
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// A non-empty shape of at most 65535 channels (LNORM's field), one record per channel with an
// int8 gamma and a shift in 1..62, int8 zero points and clamps; the error names the layer.
Status CheckNormLayer(const NormLayer& layer);

}  // namespace npu::compiler
