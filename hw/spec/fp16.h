// FP16 (IEEE 754 binary16) as the NPU computes it, the one definition the MAC array, the vector
// unit and the software reference share (docs/fp16-semantics.md states the rules):
//  - FP16 values are stored as their 16 bits, little-endian, 2 bytes an element; the accumulator
//    holds FP32 (binary32) bit patterns in its 32-bit entries.
//  - Every rounding is IEEE round-to-nearest, ties to even. Subnormals are kept (no flush to
//    zero), as inputs and as results. Overflow rounds to infinity.
//  - A NaN result is the canonical quiet NaN (FP16 0x7E00, FP32 0x7FC00000) whatever the
//    operands' NaNs were: NaN payloads never reach memory.
//  - A CONV's sum of products is exact and rounded once (Fp16DotProduct), so it does not depend
//    on the order the array adds them in.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace npu::spec {

using Fp16 = uint16_t;  // the bits of a binary16 value

inline constexpr Fp16 kFp16NaN = 0x7E00;
inline constexpr Fp16 kFp16Inf = 0x7C00;
inline constexpr Fp16 kFp16NegInf = 0xFC00;
inline constexpr Fp16 kFp16Max = 0x7BFF;  // 65504
inline constexpr uint32_t kFp32NaN = 0x7FC00000;
inline constexpr uint32_t kFp16Bytes = 2;

// The bytes of one element of an instruction's operands: 2 with its fp16 flag, else 1.
constexpr uint64_t ElementBytes(bool fp16) { return fp16 ? kFp16Bytes : 1; }

constexpr bool IsNaN16(Fp16 h) { return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0; }
constexpr bool IsInf16(Fp16 h) { return (h & 0x7FFF) == 0x7C00; }

// Exact: every binary16 value is a binary32 value.
float Fp16ToFloat(Fp16 h);
// Round to nearest even; beyond the largest finite value (65504 and half an ulp) to infinity;
// NaN to kFp16NaN.
Fp16 FloatToFp16(float f);

inline float BitsToFloat(uint32_t bits) { return std::bit_cast<float>(bits); }
// The bits of `f`, a NaN as kFp32NaN.
inline uint32_t FloatToBits(float f) { return f != f ? kFp32NaN : std::bit_cast<uint32_t>(f); }

// A finite FP16 value as an integer and a power of two: m x 2^(e - 24), |m| < 2^11, e in
// [0, 29] (subnormals have e 0). Decomposing once lets a value that takes part in many products
// (a weight, a window element) be split once.
struct Fp16Term {
  int32_t m = 0;
  int32_t e = 0;
};
bool IsFinite16(Fp16 h);
Fp16Term Decompose16(Fp16 h);  // h finite

// The sum of products of FP16 pairs, computed exactly and rounded once to FP32. Finite products
// are integers m_a m_b (below 2^22) times 2^(e_a + e_b - 48), kept in one 64-bit sum per
// exponent e_a + e_b (59 of them: 2^24 products each cannot overflow), so any sum of up to 2^24
// products is exact. Special values follow IEEE: a NaN operand, infinity times zero, or
// infinities of both signs make the sum NaN; otherwise an infinite product makes it that
// infinity. An exact zero sum is +0.
class Fp16DotProduct {
 public:
  void Add(Fp16 a, Fp16 b);
  // n products of finite terms (Decompose16), b's `b_stride` apart: the fast path of a CONV.
  void AddTerms(const Fp16Term* a, const Fp16Term* b, uint64_t b_stride, uint64_t n);
  // The sum rounded to FP32 (a NaN as kFp32NaN's value).
  float Result() const;

 private:
  static constexpr int kExponents = 59;  // e_a + e_b in [0, 58]
  int64_t sums_[kExponents] = {};        // in units of 2^(index - 48)
  bool nan_ = false, pos_inf_ = false, neg_inf_ = false;
};

// FP16 a + b, a * b: computed in FP32 (exact for a product; for a sum, binary32 has more than
// twice binary16's precision plus two bits, so rounding its result to binary16 is the correctly
// rounded sum) and rounded once to FP16.
Fp16 AddFp16(Fp16 a, Fp16 b);
Fp16 MulFp16(Fp16 a, Fp16 b);
// Larger/smaller by value; NaN if either is NaN; of two equal values (+0 and -0), `a`.
Fp16 MaxFp16(Fp16 a, Fp16 b);
Fp16 MinFp16(Fp16 a, Fp16 b);
// `v` limited to [lo, hi] by value; a NaN stays NaN (kFp16NaN).
Fp16 ClampFp16(Fp16 v, Fp16 lo, Fp16 hi);
// ELTWISE's fp16_relu: a value below 0 becomes +0; -0 and NaN stay.
Fp16 ReluFp16(Fp16 v);

// The conversions at a boundary between an int8 layer and an FP16 one (docs/fp16-semantics.md,
// "Conversions"). DoubleToFp16 rounds once, to nearest even (NaN to kFp16NaN, beyond 65504 and
// half an ulp to infinity). DequantizeToFp16 is the real value of an int8 element, `q - zp`
// times the tensor's scale, computed exactly (a 9-bit integer times a binary32 value) and rounded
// once: the 256 FP16 entries of LUT's fp16_out table. QuantizeFp16 is ELTWISE's int8_out: `v`
// times `inv_scale` (the reciprocal of the int8 tensor's scale, a binary32 value), exactly,
// rounded to the nearest integer, ties to even, saturated to int32; a NaN gives 0.
Fp16 DoubleToFp16(double d);
Fp16 DequantizeToFp16(int32_t q_minus_zero_point, float scale);
int32_t QuantizeFp16(Fp16 v, float inv_scale);
// LUT fp16_out's table for an int8 tensor of this zero point and scale: entry k is
// DequantizeToFp16(k - 128 - zero_point, scale), the FP16 value of int8 k - 128.
std::array<Fp16, 256> DequantizeTable(int32_t zero_point, float scale);
// The `inv_scale` for an int8 tensor of scale `scale`: the binary32 value nearest 1 / scale (the
// compiler writes it into ELTWISE's a_multiplier; the software reference uses the same).
inline float Fp16InverseScale(float scale) { return static_cast<float>(1.0 / static_cast<double>(scale)); }

// Little-endian element i of an FP16 array held as bytes.
inline Fp16 LoadFp16(const int8_t* bytes, uint64_t i) {
  return static_cast<Fp16>(uint8_t(bytes[2 * i]) | uint16_t(uint8_t(bytes[2 * i + 1])) << 8);
}
inline void StoreFp16(int8_t* bytes, uint64_t i, Fp16 v) {
  bytes[2 * i] = static_cast<int8_t>(v & 0xFF);
  bytes[2 * i + 1] = static_cast<int8_t>(v >> 8);
}

}  // namespace npu::spec
