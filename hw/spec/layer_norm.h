// Layer normalisation's integer semantics (docs/quantized-ir.md, layer_normalization): a row of N
// int8 values normalised to a fixed point of 4096 standard deviations, then scaled by gamma,
// offset by beta and requantised per channel. LNORM (isa.h), the integer interpreter
// (compiler/qinterp) and the control core's kernel (firmware/cpu) all compute their rows here.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/regs.h"

namespace npu::spec {

// One channel's constants: gamma (an int8 value), beta (at gamma's scale / 4096) and the
// requantisation of gamma * the normalised value to the output's scale (shift in 1..62).
struct LayerNormChannel {
  int32_t gamma = 0;
  int32_t beta = 0;
  int32_t multiplier = 0;
  int32_t shift = 1;
};

// Whether a channel's record is one LNORM computes with: an int8 gamma and a shift in 1..62.
bool ValidLnormRecord(const LayerNormChannel& channel);

// Each row of N = channels.size() values of x (x and y hold whole rows, N at most 65535) with
// X = x - x_zero_point, S1 = sum X, S2 = sum X^2 over the row and sd = ISqrt(N*S2 - S1^2 +
// eps_term): y[c] = Requantize(Sat32(Sat32(q) * gamma), beta, multiplier, shift, y_zero_point,
// clamp) for q = RoundDiv((N*X - S1) * 4096, sd) (0 when sd is 0). eps_term below 2^62.
void LayerNormRows(std::span<const int8_t> x, int32_t x_zero_point, int64_t eps_term,
                   std::span<const LayerNormChannel> channels, int32_t y_zero_point,
                   int32_t clamp_min, int32_t clamp_max, std::span<int8_t> y);

// LNORM's parameter records (kLnormParamBytes each): little-endian int32 beta, multiplier, shift
// (act's record) and gamma.
LayerNormChannel ReadLnormParams(std::span<const uint8_t> block, uint32_t channel);
void WriteLnormParams(std::span<uint8_t> block, uint32_t channel, const LayerNormChannel& params);

uint64_t LnormBytes(const LnormArgs& lnorm);       // pixels * channels: its input, and its output
uint64_t LnormParamBytes(const LnormArgs& lnorm);  // channels records

// Field sanity the encoding cannot express: no pixels or channels, clamp_min above clamp_max.
std::string CheckLnorm(const LnormArgs& lnorm);

// Dense [pixels][channels] int8 result of LNORM. Fails (kBadParameter) on a shift outside 1..62
// or a gamma outside int8.
regs::ErrorCode ComputeLnorm(const LnormArgs& lnorm, std::span<const int8_t> in,
                             std::span<const uint8_t> params, std::vector<int8_t>& out);

}  // namespace npu::spec
