// The integer arithmetic contract shared by the activation unit, the compiler and the integer
// reference (docs/integer-semantics.md). One definition, so the three cannot drift apart.
#pragma once

#include <algorithm>
#include <cstdint>

namespace npu::spec {

// The longest reduction (a convolution's kernel_h * kernel_w * in_channels / group, a Gemm's or
// MatMul's K, a normalisation's width) whose int32 sum of int8 products cannot overflow:
// |x - zp| <= 255 and |w| <= 128, so 65535 * 255 * 128 < 2^31.
inline constexpr int64_t kMaxReduction = 65535;

// The largest kernel extent, stride, pad, dilation, group or output padding a window op may have
// (float, quantised, or a CPU op of a binary): beyond it a model is refused at shape inference and
// a binary at load. No real model comes near; the bound keeps every size computation far from
// overflow.
inline constexpr int64_t kMaxWindowValue = int64_t{1} << 16;

inline constexpr int kMinShift = 1;
inline constexpr int kMaxShift = 62;

inline int64_t Clamp64(int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); }

// TOSA APPLY_SCALE_32 with double_round = false: (value * multiplier + 2^(shift-1)) >> shift,
// i.e. round half towards +infinity, then saturate to int32. shift must be in [1, 62].
inline int32_t ApplyScale(int32_t value, int32_t multiplier, int shift) {
  const int64_t round = int64_t{1} << (shift - 1);
  const int64_t scaled = (int64_t{value} * multiplier + round) >> shift;  // arithmetic shift
  return static_cast<int32_t>(Clamp64(scaled, INT32_MIN, INT32_MAX));
}

// floor(sqrt(v)), exactly (layer normalisation's standard deviation, docs/quantized-ir.md).
inline uint64_t ISqrt(uint64_t v) {
  uint64_t r = static_cast<uint64_t>(__builtin_sqrtl(static_cast<long double>(v)));
  while (r > 0 && r > v / r) --r;      // r * r > v
  while ((r + 1) <= v / (r + 1)) ++r;  // (r + 1)^2 <= v
  return r;
}

// (value + 2^(shift-1)) >> shift, arithmetic: round half towards +infinity. shift in [1, 62].
inline int64_t RoundingShift(int64_t value, int shift) {
  return (value + (int64_t{1} << (shift - 1))) >> shift;
}

// The entry of a 256-entry lookup table for int8 `x`: entry k holds the output for input k - 128.
inline int LutIndex(int8_t x) { return int{x} + 128; }

// The vector unit's per-element operation: saturating int32 bias add, scale, zero point, clamp.
inline int8_t Requantize(int32_t acc, int32_t bias, int32_t multiplier, int shift,
                         int32_t zero_point, int32_t clamp_min, int32_t clamp_max) {
  const int32_t biased = static_cast<int32_t>(Clamp64(int64_t{acc} + bias, INT32_MIN, INT32_MAX));
  const int64_t out = int64_t{ApplyScale(biased, multiplier, shift)} + zero_point;
  return static_cast<int8_t>(Clamp64(out, std::max(clamp_min, -128), std::min(clamp_max, 127)));
}

}  // namespace npu::spec
