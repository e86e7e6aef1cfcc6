// The quantiser's arithmetic.
#include "compiler/quantize/quant_params.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace npu::compiler::quantize {
namespace {

constexpr double kMinRange = 1e-6;
constexpr double kMinRowScaleRatio = 1.0 / 65536;  // 2^-16
constexpr int64_t kInt16Max = 32767;

int8_t RoundToInt8(double v, double lo = -128.0, double hi = 127.0) {
  return static_cast<int8_t>(std::clamp(std::nearbyint(v), lo, hi));
}

}  // namespace

ir::QuantParams ActivationParams(ValueRange range) {
  double lo = std::min<double>(range.lo, 0.0), hi = std::max<double>(range.hi, 0.0);
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0.0, hi = 0.0;
  if (hi - lo < kMinRange) hi = lo + kMinRange;
  // The zero point is derived from the float scale that is stored, so readers recomputing from
  // the stored scale get the same integers.
  const float scale = static_cast<float>((hi - lo) / 255.0);
  const double zp = std::clamp(std::nearbyint(-128.0 - lo / scale), -128.0, 127.0);
  ir::QuantParams q;
  q.scale = {scale};
  q.zero_point = {static_cast<int32_t>(zp)};
  return q;
}

QuantizedWeights QuantizeWeightRows(std::span<const float> rows, int64_t k,
                                    const std::vector<float>* given, int bits) {
  const double top = bits == 4 ? 7.0 : 127.0, bottom = -top - 1;
  const int64_t out = k > 0 ? static_cast<int64_t>(rows.size()) / k : 0;
  QuantizedWeights q;
  // 1. Scales: given, or max|w| / 127 per row with the floor and zero-row rules.
  if (given != nullptr) {
    q.scales = *given;
  } else {
    q.scales.assign(out, 0.0f);
    float largest = 0.0f;
    for (int64_t o = 0; o < out; ++o) {
      float m = 0.0f;
      for (int64_t i = 0; i < k; ++i) m = std::max(m, std::fabs(rows[o * k + i]));
      q.scales[o] = static_cast<float>(m / top);
      largest = std::max(largest, q.scales[o]);
    }
    if (largest == 0.0f) largest = 1.0f;
    const float floor = static_cast<float>(largest * kMinRowScaleRatio);
    for (float& s : q.scales) s = s == 0.0f ? largest : std::max(s, floor);
  }
  // 2. Values.
  q.values.resize(rows.size());
  for (int64_t o = 0; o < out; ++o) {
    for (int64_t i = 0; i < k; ++i) {
      q.values[o * k + i] = RoundToInt8(double{rows[o * k + i]} / q.scales[o], bottom, top);
    }
  }
  return q;
}

std::vector<int32_t> QuantizeBias(std::span<const float> bias, float input_scale,
                                  std::span<const float> weight_scales, int64_t& saturated) {
  std::vector<int32_t> q(weight_scales.size(), 0);
  if (bias.empty()) return q;
  constexpr double kLo = std::numeric_limits<int32_t>::min();
  constexpr double kHi = std::numeric_limits<int32_t>::max();
  for (size_t o = 0; o < q.size(); ++o) {
    const double v =
        std::nearbyint(double{bias[o]} / (double{input_scale} * double{weight_scales[o]}));
    if (v < kLo || v > kHi) ++saturated;
    q[o] = static_cast<int32_t>(std::clamp(v, kLo, kHi));
  }
  return q;
}

void FitFoldedBias(std::vector<int32_t>& bias, int32_t input_zero_point,
                   std::span<const int8_t> weights, int64_t k, int64_t& saturated) {
  constexpr int64_t kLo = std::numeric_limits<int32_t>::min();
  constexpr int64_t kHi = std::numeric_limits<int32_t>::max();
  for (size_t o = 0; o < bias.size() && int64_t(o + 1) * k <= int64_t(weights.size()); ++o) {
    int64_t sum = 0;
    for (int64_t i = 0; i < k; ++i) sum += weights[o * k + i];
    const int64_t share = int64_t{input_zero_point} * sum;  // folded = bias - share
    const int64_t fitted =
        std::clamp<int64_t>(bias[o], std::max(kLo, kLo + share), std::min(kHi, kHi + share));
    if (fitted != bias[o]) ++saturated;
    bias[o] = static_cast<int32_t>(fitted);
  }
}

StatusOr<ChannelMultipliers> RequantMultipliers(float input_scale,
                                                std::span<const float> weight_scales,
                                                float output_scale) {
  ChannelMultipliers m;
  for (size_t o = 0; o < weight_scales.size(); ++o) {
    const double real = double{input_scale} * double{weight_scales[o]} / double{output_scale};
    StatusOr<QuantizedMultiplier> q = QuantizeMultiplier(real);
    if (!q.ok()) return q.status().WithContext(fmt::format("output channel {}", o));
    m.multiplier.push_back(q->multiplier);
    m.shift.push_back(q->shift);
  }
  return m;
}

StatusOr<AddMultipliers> ComputeAddMultipliers(float scale_a, float scale_b, float scale_y) {
  const double ra = double{scale_a} / scale_y, rb = double{scale_b} / scale_y;
  // 1. The largest shift that keeps both rounded multipliers within int16.
  for (int shift = 62; shift >= 1; --shift) {
    const double fa = std::ldexp(ra, shift), fb = std::ldexp(rb, shift);
    if (fa >= kInt16Max + 0.5 || fb >= kInt16Max + 0.5) continue;  // also keeps llround in range
    return AddMultipliers{std::llround(fa), std::llround(fb), shift};
  }
  // 2. None: an input scale more than 2^14 times the output's.
  return InvalidArgument(fmt::format(
      "add input scales {} and {} are too large for output scale {}: the ratios {} and {} need "
      "a multiplier above the int16 range",
      scale_a, scale_b, scale_y, ra, rb));
}

ClampRange ActivationClamp(std::string_view activation, const ir::QuantParams& out) {
  if (activation == "relu") return ReluClamp(out.zero_point[0]);
  if (activation == "relu6") return Relu6Clamp(out.scale[0], out.zero_point[0]);
  return NoActivationClamp();
}

}  // namespace npu::compiler::quantize
