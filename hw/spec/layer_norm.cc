#include "hw/spec/layer_norm.h"

#include <fmt/format.h>

#include <climits>

#include "hw/spec/arith.h"
#include "hw/spec/semantics.h"

namespace npu::spec {
namespace {

constexpr int kNormalisedOne = 4096;  // q's fixed point: one standard deviation

int32_t Sat32(int64_t v) { return static_cast<int32_t>(Clamp64(v, INT32_MIN, INT32_MAX)); }

// One row of LayerNormRows.
void LayerNormRow(std::span<const int8_t> x, int32_t x_zero_point, int64_t eps_term,
                  std::span<const LayerNormChannel> channels, int32_t y_zero_point,
                  int32_t clamp_min, int32_t clamp_max, std::span<int8_t> y) {
  const int64_t n = int64_t(x.size());
  int64_t s1 = 0, s2 = 0;
  for (int8_t v : x) {
    const int64_t d = v - x_zero_point;
    s1 += d;
    s2 += d * d;
  }
  const int64_t sd = int64_t(ISqrt(uint64_t(n * s2 - s1 * s1 + eps_term)));
  for (int64_t k = 0; k < n; ++k) {
    const int64_t q = sd == 0 ? 0 : RoundDiv((n * (x[k] - x_zero_point) - s1) * kNormalisedOne, sd);
    const LayerNormChannel& ch = channels[k];
    y[k] = Requantize(Sat32(int64_t{Sat32(q)} * ch.gamma), ch.beta, ch.multiplier, ch.shift,
                      y_zero_point, clamp_min, clamp_max);
  }
}

}  // namespace

bool ValidLnormRecord(const LayerNormChannel& ch) {
  return ch.gamma >= INT8_MIN && ch.gamma <= INT8_MAX && ch.shift >= kMinShift &&
         ch.shift <= kMaxShift;
}

void LayerNormRows(std::span<const int8_t> x, int32_t x_zero_point, int64_t eps_term,
                   std::span<const LayerNormChannel> channels, int32_t y_zero_point,
                   int32_t clamp_min, int32_t clamp_max, std::span<int8_t> y) {
  const size_t n = channels.size();
  for (size_t row = 0; row < x.size() / n; ++row) {
    LayerNormRow(x.subspan(row * n, n), x_zero_point, eps_term, channels, y_zero_point, clamp_min,
                 clamp_max, y.subspan(row * n, n));
  }
}

// The record's first kActParamBytes are act's record; gamma follows.
LayerNormChannel ReadLnormParams(std::span<const uint8_t> block, uint32_t channel) {
  std::span<const uint8_t> record = block.subspan(uint64_t{channel} * kLnormParamBytes);
  const ActParams act = ReadActParams(record, 0);
  const uint8_t* g = record.data() + kActParamBytes;
  const auto gamma = static_cast<int32_t>(uint32_t{g[0]} | uint32_t{g[1]} << 8 |
                                          uint32_t{g[2]} << 16 | uint32_t{g[3]} << 24);
  return {gamma, act.bias, act.multiplier, act.shift};
}

void WriteLnormParams(std::span<uint8_t> block, uint32_t channel, const LayerNormChannel& p) {
  std::span<uint8_t> record = block.subspan(uint64_t{channel} * kLnormParamBytes, kLnormParamBytes);
  WriteActParams(record, 0, {p.beta, p.multiplier, p.shift});
  for (int b = 0; b < 4; ++b) {
    record[kActParamBytes + b] = static_cast<uint8_t>(static_cast<uint32_t>(p.gamma) >> (8 * b));
  }
}

uint64_t LnormBytes(const LnormArgs& l) { return uint64_t{l.pixels} * l.channels; }
uint64_t LnormParamBytes(const LnormArgs& l) { return uint64_t{l.channels} * kLnormParamBytes; }

std::string CheckLnorm(const LnormArgs& l) {
  if (l.pixels == 0 || l.channels == 0) return "empty tile";
  if (l.clamp_min > l.clamp_max) {
    return fmt::format("clamp_min {} > clamp_max {}", l.clamp_min, l.clamp_max);
  }
  return "";
}

regs::ErrorCode ComputeLnorm(const LnormArgs& l, std::span<const int8_t> in,
                             std::span<const uint8_t> params, std::vector<int8_t>& out) {
  std::vector<LayerNormChannel> channels(l.channels);
  for (uint32_t c = 0; c < l.channels; ++c) {
    channels[c] = ReadLnormParams(params, c);
    if (!ValidLnormRecord(channels[c])) return regs::ErrorCode::kBadParameter;
  }
  out.resize(LnormBytes(l));
  LayerNormRows(in.first(LnormBytes(l)), l.in_zero_point, l.eps_term, channels, l.out_zero_point,
                l.clamp_min, l.clamp_max, out);
  return regs::ErrorCode::kNone;
}

}  // namespace npu::spec
