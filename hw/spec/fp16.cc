// FP16 conversions and arithmetic (fp16.h), by hand: the C++ of our compilers has no portable
// binary16 type, and the rounding must be the one docs/fp16-semantics.md states.
#include "hw/spec/fp16.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace npu::spec {

float Fp16ToFloat(Fp16 h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  const uint32_t exponent = (h >> 10) & 0x1F, fraction = h & 0x3FF;
  if (exponent == 0) {  // zero or subnormal: fraction x 2^-24, exact in binary32
    const float magnitude = std::ldexp(static_cast<float>(fraction), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 0x1F) return BitsToFloat(sign | 0x7F800000u | (fraction << 13));
  return BitsToFloat(sign | ((exponent + 112) << 23) | (fraction << 13));  // 127 - 15 = 112
}

namespace {

// `value` >> `shift` (1..31) rounded to nearest, ties to the even result.
uint32_t ShiftRoundEven(uint32_t value, int shift) {
  const uint32_t kept = value >> shift, rest = value & ((1u << shift) - 1), half = 1u << (shift - 1);
  return kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
}

}  // namespace

Fp16 FloatToFp16(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const auto sign = static_cast<Fp16>((bits >> 16) & 0x8000);
  const uint32_t magnitude = bits & 0x7FFFFFFF;
  if (magnitude > 0x7F800000) return kFp16NaN;
  // 65520 = 65504 + half an ulp: the tie rounds to the even 65536, which overflows.
  if (magnitude >= 0x477FF000) return sign | kFp16Inf;
  const uint32_t exponent = magnitude >> 23;
  if (exponent < 113) {  // below 2^-14: an FP16 subnormal or zero, in units of 2^-24
    const int shift = 126 - static_cast<int>(exponent);  // value = significand x 2^(e - 150)
    if (exponent == 0 || shift > 24) return sign;        // below half of 2^-24 (or a tie at it)
    return sign | static_cast<Fp16>(ShiftRoundEven((magnitude & 0x7FFFFF) | 0x800000, shift));
  }
  // Normal: the carry of the rounding may step the exponent, which the bit layout does itself.
  const uint32_t unrounded = ((exponent - 112) << 23) | (magnitude & 0x7FFFFF);
  return sign | static_cast<Fp16>(ShiftRoundEven(unrounded, 13));
}

Fp16 DoubleToFp16(double d) {
  if (d != d) return kFp16NaN;
  // Rounding to binary32 first could round twice; instead take FloatToFp16's answer and its
  // neighbours, whose values are exact doubles, and keep the nearest (ties to an even fraction).
  const Fp16 guess = FloatToFp16(static_cast<float>(d));
  if (IsInf16(guess)) return std::fabs(d) >= 65520.0 ? guess : static_cast<Fp16>((guess & 0x8000) | kFp16Max);
  Fp16 best = guess;
  double best_error = std::fabs(d - Fp16ToFloat(guess));
  for (const int step : {-1, 1}) {
    const Fp16 n = static_cast<Fp16>(guess + step);
    if ((n & 0x7FFF) > kFp16Max || ((n ^ guess) & 0x8000)) continue;  // off the finite range or across zero
    const double error = std::fabs(d - Fp16ToFloat(n));
    if (error < best_error || (error == best_error && (n & 1) == 0)) {
      best = n;
      best_error = error;
    }
  }
  return best;
}

Fp16 DequantizeToFp16(int32_t q_minus_zero_point, float scale) {
  return DoubleToFp16(static_cast<double>(q_minus_zero_point) * static_cast<double>(scale));
}

std::array<Fp16, 256> DequantizeTable(int32_t zero_point, float scale) {
  std::array<Fp16, 256> table;
  for (int32_t k = 0; k < 256; ++k) table[k] = DequantizeToFp16(k - 128 - zero_point, scale);
  return table;
}

int32_t QuantizeFp16(Fp16 v, float inv_scale) {
  if (IsNaN16(v)) return 0;
  const double product = static_cast<double>(Fp16ToFloat(v)) * static_cast<double>(inv_scale);
  if (product != product) return 0;  // infinity times zero
  if (product >= 2147483647.0) return INT32_MAX;
  if (product <= -2147483648.0) return INT32_MIN;
  return static_cast<int32_t>(std::nearbyint(product));  // the default mode: ties to even
}

bool IsFinite16(Fp16 h) { return (h & 0x7C00) != 0x7C00; }

Fp16Term Decompose16(Fp16 h) {
  const int32_t exponent = (h >> 10) & 0x1F, fraction = h & 0x3FF;
  Fp16Term t = exponent == 0 ? Fp16Term{fraction, 0} : Fp16Term{fraction | 0x400, exponent - 1};
  if (h & 0x8000) t.m = -t.m;
  return t;
}

namespace {

bool IsZero16(Fp16 h) { return (h & 0x7FFF) == 0; }

int BitLength(unsigned __int128 v) {
  const auto high = static_cast<uint64_t>(v >> 64), low = static_cast<uint64_t>(v);
  if (high != 0) return 128 - __builtin_clzll(high);
  return low == 0 ? 0 : 64 - __builtin_clzll(low);
}

}  // namespace

void Fp16DotProduct::Add(Fp16 a, Fp16 b) {
  if (IsNaN16(a) || IsNaN16(b)) {
    nan_ = true;
    return;
  }
  if (IsInf16(a) || IsInf16(b)) {
    if (IsZero16(a) || IsZero16(b)) {
      nan_ = true;  // infinity x 0
    } else {
      ((a ^ b) & 0x8000 ? neg_inf_ : pos_inf_) = true;
    }
    return;
  }
  const Fp16Term x = Decompose16(a), y = Decompose16(b);
  sums_[x.e + y.e] += int64_t{x.m} * y.m;
}

void Fp16DotProduct::AddTerms(const Fp16Term* a, const Fp16Term* b, uint64_t b_stride,
                              uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    const Fp16Term& y = b[i * b_stride];
    sums_[a[i].e + y.e] += int64_t{a[i].m} * y.m;
  }
}

float Fp16DotProduct::Result() const {
  if (nan_ || (pos_inf_ && neg_inf_)) return BitsToFloat(kFp32NaN);
  if (pos_inf_ || neg_inf_) return pos_inf_ ? INFINITY : -INFINITY;
  __int128 sum = 0;  // in units of 2^-48: below 2^105
  for (int e = 0; e < kExponents; ++e) sum += static_cast<__int128>(sums_[e]) << e;
  if (sum == 0) return 0.0f;
  const bool negative = sum < 0;
  const auto magnitude = static_cast<unsigned __int128>(negative ? -sum : sum);
  // Keep 24 significant bits, rounded to nearest even; the result is at least 2^-48 and below
  // 2^105, a normal binary32, so scaling by a power of two is exact.
  const int shift = std::max(0, BitLength(magnitude) - 24);
  uint64_t kept = static_cast<uint64_t>(magnitude >> shift);
  if (shift > 0) {
    const unsigned __int128 rest = magnitude & ((static_cast<unsigned __int128>(1) << shift) - 1);
    const unsigned __int128 half = static_cast<unsigned __int128>(1) << (shift - 1);
    if (rest > half || (rest == half && (kept & 1))) ++kept;  // 2^24 at most: still exact
  }
  const float value = std::ldexp(static_cast<float>(kept), shift - 48);
  return negative ? -value : value;
}

Fp16 AddFp16(Fp16 a, Fp16 b) { return FloatToFp16(Fp16ToFloat(a) + Fp16ToFloat(b)); }
Fp16 MulFp16(Fp16 a, Fp16 b) { return FloatToFp16(Fp16ToFloat(a) * Fp16ToFloat(b)); }

Fp16 MaxFp16(Fp16 a, Fp16 b) {
  if (IsNaN16(a) || IsNaN16(b)) return kFp16NaN;
  return Fp16ToFloat(a) < Fp16ToFloat(b) ? b : a;
}

Fp16 MinFp16(Fp16 a, Fp16 b) {
  if (IsNaN16(a) || IsNaN16(b)) return kFp16NaN;
  return Fp16ToFloat(b) < Fp16ToFloat(a) ? b : a;
}

Fp16 ReluFp16(Fp16 v) { return !IsNaN16(v) && Fp16ToFloat(v) < 0.0f ? Fp16{0} : v; }

Fp16 ClampFp16(Fp16 v, Fp16 lo, Fp16 hi) {
  if (IsNaN16(v)) return kFp16NaN;
  const float x = Fp16ToFloat(v);
  if (x < Fp16ToFloat(lo)) return lo;
  if (x > Fp16ToFloat(hi)) return hi;
  return v;
}

}  // namespace npu::spec
