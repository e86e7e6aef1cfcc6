// FP16 (hw/spec/fp16.h, fp16_semantics.cc): conversions against the compiler's own binary16 type
// and by hand at every rounding boundary; the exact, once-rounded dot product, its special
// values; what CONV, ACT, POOL and ELTWISE compute with fp16 set, checked against sums written
// out here (in double, exact for these operands); sizes, checks, timing and config.
#include "tests/common/hand_config.h"
#include "hw/spec/fp16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "hw/spec/config.h"
#include "hw/spec/isa.h"
#include "hw/spec/operand_stream.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"
#include "hw/spec/unit_accesses.h"
#include "tests/spec/square_conv.h"

namespace npu::spec {
namespace {

uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

TEST(Fp16, EveryValueConvertsToFloatAndBackExactly) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto v = static_cast<Fp16>(h);
    if (IsNaN16(v)) {
      EXPECT_TRUE(std::isnan(Fp16ToFloat(v)));
      EXPECT_EQ(FloatToFp16(Fp16ToFloat(v)), kFp16NaN);
    } else {
      EXPECT_EQ(FloatToFp16(Fp16ToFloat(v)), v) << std::hex << h;
    }
  }
  EXPECT_EQ(Fp16ToFloat(0x3C00), 1.0f);
  EXPECT_EQ(Fp16ToFloat(0x0001), std::ldexp(1.0f, -24));  // the least subnormal
  EXPECT_EQ(Fp16ToFloat(kFp16Max), 65504.0f);
  EXPECT_EQ(Fp16ToFloat(0x8000), 0.0f);
  EXPECT_TRUE(std::signbit(Fp16ToFloat(0x8000)));
}

TEST(Fp16, RoundsToNearestEvenAtEveryBoundary) {
  const float ulp1 = std::ldexp(1.0f, -10);  // FP16's ulp at 1
  EXPECT_EQ(FloatToFp16(1.0f + ulp1 / 2), 0x3C00);      // tie: to the even 1.0
  EXPECT_EQ(FloatToFp16(1.0f + 3 * ulp1 / 2), 0x3C02);  // tie: to the even 1 + 2 ulp
  EXPECT_EQ(FloatToFp16(std::nextafter(1.0f + ulp1 / 2, 2.0f)), 0x3C01);
  EXPECT_EQ(FloatToFp16(65519.0f), kFp16Max);  // below 65504 + half an ulp
  EXPECT_EQ(FloatToFp16(65520.0f), kFp16Inf);  // the tie rounds to the even 2^16: overflow
  EXPECT_EQ(FloatToFp16(-1e9f), kFp16NegInf);
  EXPECT_EQ(FloatToFp16(INFINITY), kFp16Inf);
  const float tiny = std::ldexp(1.0f, -24);  // subnormals, in units of 2^-24
  EXPECT_EQ(FloatToFp16(tiny / 2), 0x0000);                        // tie to the even 0
  EXPECT_EQ(FloatToFp16(std::nextafter(tiny / 2, 1.0f)), 0x0001);  // above the tie
  EXPECT_EQ(FloatToFp16(-tiny / 2), 0x8000);                       // keeps its sign
  EXPECT_EQ(FloatToFp16(3 * tiny / 2), 0x0002);                    // tie to the even 2
  EXPECT_EQ(FloatToFp16(std::ldexp(1023.5f, -24)), 0x0400);        // up into the normals
  EXPECT_EQ(FloatToFp16(std::ldexp(1.0f, -130)), 0x0000);          // an FP32 subnormal
  EXPECT_EQ(FloatToFp16(std::nanf("")), kFp16NaN);
  EXPECT_EQ(FloatToFp16(-std::nanf("")), kFp16NaN);  // canonical: no sign, no payload
}

#if defined(__FLT16_MANT_DIG__) && defined(__GNUC__) && !defined(__clang__)
// GCC's _Float16 conversion is IEEE's; ours must agree on every finite float and infinity.
TEST(Fp16, AgreesWithTheCompilersBinary16OnRandomFloats) {
  std::mt19937 rng(7);
  for (int i = 0; i < 2'000'000; ++i) {
    uint32_t bits = rng();
    if (i % 2) bits = (bits & 0x807FFFFF) | ((100 + rng() % 45) << 23);  // FP16's range
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f)) continue;
    const _Float16 h = static_cast<_Float16>(f);
    Fp16 want;
    std::memcpy(&want, &h, 2);
    ASSERT_EQ(FloatToFp16(f), want) << std::hexfloat << f;
  }
}

// From double, in one rounding: where a rounding to binary32 first would round twice.
TEST(Fp16, AgreesWithTheCompilersBinary16OnRandomDoubles) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 1'000'000; ++i) {
    uint64_t bits = rng();
    bits = (bits & 0x800FFFFFFFFFFFFFull) | ((uint64_t{990} + rng() % 47) << 52);
    if (i % 3 == 0) bits &= ~((uint64_t{1} << 29) - 1) | 1;  // just above a binary32 tie
    double d;
    std::memcpy(&d, &bits, 8);
    const _Float16 h = static_cast<_Float16>(d);
    Fp16 want;
    std::memcpy(&want, &h, 2);
    ASSERT_EQ(DoubleToFp16(d), want) << std::hexfloat << d;
  }
}
#endif

TEST(Fp16, FromDoubleRoundsOnceWhereFloatWouldRoundTwice) {
  // 1 + 2^-11 + 2^-40: above FP16's tie at 1 + half an ulp, so it rounds up; through binary32
  // the 2^-40 is lost and the tie goes to the even 1.0.
  const double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(FloatToFp16(static_cast<float>(d)), 0x3C00);
  EXPECT_EQ(DoubleToFp16(d), 0x3C01);
  EXPECT_EQ(DoubleToFp16(65519.999), kFp16Max);
  EXPECT_EQ(DoubleToFp16(-65520.0), kFp16NegInf);
  EXPECT_EQ(DoubleToFp16(std::ldexp(1.0, -25)), 0x0000);  // the tie at half the least subnormal
  EXPECT_EQ(DoubleToFp16(-std::ldexp(1.0, -25) * 1.0000001), 0x8001);
  EXPECT_EQ(DoubleToFp16(std::nan("")), kFp16NaN);
  EXPECT_EQ(DequantizeToFp16(-3, 0.5f), FloatToFp16(-1.5f));
  const std::array<Fp16, 256> table = DequantizeTable(5, 0.1f);  // entry k: int8 k - 128
  for (int k = 0; k < 256; ++k) EXPECT_EQ(table[k], DequantizeToFp16(k - 128 - 5, 0.1f)) << k;
  EXPECT_EQ(table[128 + 7], DequantizeToFp16(2, 0.1f));
}

TEST(Fp16, QuantizesWithOneRoundingTiesToEvenAndSaturates) {
  EXPECT_EQ(QuantizeFp16(FloatToFp16(2.5f), 1.0f), 2);  // ties to even
  EXPECT_EQ(QuantizeFp16(FloatToFp16(3.5f), 1.0f), 4);
  EXPECT_EQ(QuantizeFp16(FloatToFp16(-2.5f), 1.0f), -2);
  EXPECT_EQ(QuantizeFp16(FloatToFp16(1.25f), 10.0f), 12);  // 12.5: exact product, tie to 12
  EXPECT_EQ(QuantizeFp16(kFp16Inf, 0.5f), INT32_MAX);
  EXPECT_EQ(QuantizeFp16(kFp16NegInf, 0.5f), INT32_MIN);
  EXPECT_EQ(QuantizeFp16(kFp16NaN, 0.5f), 0);
  EXPECT_EQ(QuantizeFp16(kFp16Max, 1e30f), INT32_MAX);
}

Fp16 H(float f) { return FloatToFp16(f); }

TEST(Fp16, DotProductIsExactThenRoundedOnce) {
  {  // 65504^2 + 1 - 65504^2: an FP32 running sum would lose the 1
    Fp16DotProduct dot;
    dot.Add(H(65504), H(65504));
    dot.Add(H(1), H(1));
    dot.Add(H(-65504), H(65504));
    EXPECT_EQ(dot.Result(), 1.0f);
  }
  {  // 2^24 + 1 is a tie in FP32 (to the even 2^24); 2^-24 more breaks it upwards
    Fp16DotProduct tie, above;
    for (Fp16DotProduct* d : {&tie, &above}) {
      d->Add(H(4096), H(4096));
      d->Add(H(1), H(1));
    }
    above.Add(H(std::ldexp(1.0f, -12)), H(std::ldexp(1.0f, -12)));
    EXPECT_EQ(tie.Result(), 16777216.0f);
    EXPECT_EQ(above.Result(), 16777218.0f);
  }
  {  // subnormal times subnormal: 2^-48, exactly
    Fp16DotProduct dot;
    dot.Add(0x0001, 0x0001);
    EXPECT_EQ(dot.Result(), std::ldexp(1.0f, -48));
  }
  {  // an exact zero is +0, whatever the signs of the products
    Fp16DotProduct dot;
    dot.Add(0x8000, H(1));
    EXPECT_EQ(Bits(dot.Result()), 0u);
  }
}

TEST(Fp16, DotProductSpecialValuesFollowIeee) {
  auto result = [](std::initializer_list<std::pair<Fp16, Fp16>> pairs) {
    Fp16DotProduct dot;
    for (auto [a, b] : pairs) dot.Add(a, b);
    return FloatToBits(dot.Result());
  };
  EXPECT_EQ(result({{kFp16NaN, H(1)}, {H(2), H(3)}}), kFp32NaN);
  EXPECT_EQ(result({{0x7C01, H(0)}}), kFp32NaN);  // a signalling NaN too
  EXPECT_EQ(result({{kFp16Inf, 0x8000}}), kFp32NaN);  // infinity x 0
  EXPECT_EQ(result({{kFp16Inf, H(2)}, {kFp16Inf, H(-1)}}), kFp32NaN);  // +inf + -inf
  EXPECT_EQ(result({{kFp16Inf, H(2)}, {H(-65504), H(65504)}}), Bits(INFINITY));
  EXPECT_EQ(result({{kFp16Inf, H(-2)}}), Bits(-INFINITY));
}

// Random operands of magnitude 2^-14..2: every product and any sum of up to 2^20 of them is
// exact in double, so float(double sum) is the one correctly rounded result.
TEST(Fp16, DotProductEqualsTheExactSumRoundedOnceOnRandomOperands) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  for (int trial = 0; trial < 2000; ++trial) {
    Fp16DotProduct dot;
    double exact = 0;
    const int n = 1 + int(rng() % 300);
    for (int i = 0; i < n; ++i) {
      Fp16 a = H(value(rng)), b = H(value(rng));
      if (std::fabs(Fp16ToFloat(a)) < std::ldexp(1.0f, -14)) a = H(1);
      if (std::fabs(Fp16ToFloat(b)) < std::ldexp(1.0f, -14)) b = H(-1);
      dot.Add(a, b);
      exact += double(Fp16ToFloat(a)) * double(Fp16ToFloat(b));
    }
    ASSERT_EQ(Bits(dot.Result()), Bits(static_cast<float>(exact))) << "trial " << trial;
  }
}

TEST(Fp16, ElementwiseArithmeticRoundsOnce) {
  EXPECT_EQ(AddFp16(H(1), H(std::ldexp(1.0f, -11))), H(1));  // tie to even
  EXPECT_EQ(AddFp16(H(65504), H(65504)), kFp16Inf);
  EXPECT_EQ(AddFp16(kFp16Inf, kFp16NegInf), kFp16NaN);
  EXPECT_EQ(MulFp16(H(3), H(-0.5f)), H(-1.5f));
  EXPECT_EQ(MulFp16(0x0001, H(0.5f)), 0x0000);  // 2^-25: the tie goes to the even 0
  EXPECT_EQ(MaxFp16(H(-1), H(2)), H(2));
  EXPECT_EQ(MinFp16(H(-1), H(2)), H(-1));
  EXPECT_EQ(MaxFp16(H(1), kFp16NaN), kFp16NaN);
  EXPECT_EQ(MinFp16(0x7D00, H(1)), kFp16NaN);
  EXPECT_EQ(MaxFp16(0x8000, 0x0000), 0x8000);  // equal values: the first
  EXPECT_EQ(ClampFp16(H(7), H(0), H(6)), H(6));
  EXPECT_EQ(ClampFp16(H(-7), H(0), H(6)), H(0));
  EXPECT_EQ(ClampFp16(0x7D00, H(0), H(6)), kFp16NaN);
}

// ---- the instructions ----

std::vector<int8_t> ToBytes(const std::vector<float>& values) {
  std::vector<int8_t> bytes(values.size() * 2);
  for (size_t i = 0; i < values.size(); ++i) StoreFp16(bytes.data(), i, H(values[i]));
  return bytes;
}

std::vector<float> RandomValues(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> q(-64, 64);  // multiples of 1/32: exact in FP16
  std::vector<float> v(n);
  for (float& x : v) x = q(rng) / 32.0f;
  return v;
}

float InputAt(const ConvArgs& c, const std::vector<float>& in, int64_t y, int64_t x, uint32_t ch) {
  if (y < 0 || y >= c.in_h || x < 0 || x >= c.in_w) return 0.0f;
  return in[(uint64_t(y) * c.in_w + uint64_t(x)) * c.in_c + ch];
}

// The CONV from its definition: the sum in double (exact here), rounded once to FP32.
std::vector<float> ConvByHand(const ConvArgs& c, const std::vector<float>& in,
                              const std::vector<float>& w) {
  std::vector<float> out(ConvAccEntries(c));
  for (uint32_t oh = 0; oh < c.out_h; ++oh) {
    for (uint32_t ow = 0; ow < c.out_w; ++ow) {
      for (uint32_t n = 0; n < c.out_c; ++n) {
        double sum = 0;
        for (uint32_t kh = 0; kh < c.kernel_h; ++kh) {
          for (uint32_t kw = 0; kw < c.kernel_w; ++kw) {
            const int64_t y = int64_t{oh} * c.stride_h + kh * c.dilation_h - c.pad_top;
            const int64_t x = int64_t{ow} * c.stride_w + kw * c.dilation_w - c.pad_left;
            const uint64_t tap = uint64_t{kh} * c.kernel_w + kw;
            if (c.depthwise) {
              sum += double(InputAt(c, in, y, x, n)) * w[n * c.kernel_h * c.kernel_w + tap];
              continue;
            }
            // Groups: n's group's channels (all of them for one group).
            const uint32_t cg = c.in_c / c.groups, first = n / (c.out_c / c.groups) * cg;
            for (uint32_t ch = 0; ch < cg; ++ch) {
              const uint64_t i = tap * cg + ch;
              const float wt = c.weights_kn ? w[i * c.out_c + n] : w[n * ConvWeightRowValues(c) + i];
              sum += double(InputAt(c, in, y, x, first + ch)) * wt;
            }
          }
        }
        out[(uint64_t{oh} * c.out_w + ow) * c.out_c + n] = static_cast<float>(sum);
      }
    }
  }
  return out;
}

void ExpectConvByHand(ConvArgs c, uint32_t seed) {
  c.fp16 = true;
  const std::vector<float> in = RandomValues(ConvInputBytes(c) / 2, seed);
  const std::vector<float> w = RandomValues(ConvWeightBytes(c) / 2, seed + 1);
  std::vector<int32_t> acc(ConvAccEntries(c), 0x7FFFFFFF);  // replaced: not accumulating
  ComputeConv(c, ToBytes(in), ToBytes(w), acc);
  const std::vector<float> want = ConvByHand(c, in, w);
  for (size_t i = 0; i < acc.size(); ++i) ASSERT_EQ(uint32_t(acc[i]), Bits(want[i])) << i;
  // Accumulating adds the same sums to the entries, in FP32.
  c.accumulate = true;
  std::vector<int32_t> again = acc;
  ComputeConv(c, ToBytes(in), ToBytes(w), again);
  for (size_t i = 0; i < acc.size(); ++i) ASSERT_EQ(uint32_t(again[i]), Bits(want[i] + want[i]));
}

TEST(Fp16Conv, DenseDepthwiseGroupedAndKnEqualTheirDefinitions) {
  ConvArgs dense = testing::SquareConv(3, 5, 7, 4);
  dense.in_h = dense.in_w = 4;  // padded by 1 all round: pads read +0
  dense.pad_top = dense.pad_left = 1;
  ExpectConvByHand(dense, 1);
  ConvArgs strided = testing::SquareConv(3, 3, 4, 3);
  strided.stride_h = strided.stride_w = 2;
  strided.dilation_h = 2;
  strided.in_h = strided.in_w = 9;
  ExpectConvByHand(strided, 2);
  ConvArgs depthwise = testing::SquareConv(3, 6, 6, 3);
  depthwise.depthwise = true;
  depthwise.pad_top = 1;
  ExpectConvByHand(depthwise, 3);
  ConvArgs kn = testing::SquareConv(1, 9, 5, 4);
  kn.weights_kn = true;
  ExpectConvByHand(kn, 4);
  ConvArgs grouped = testing::SquareConv(3, 6, 9, 3);  // 3 groups of 2 input, 3 output channels
  grouped.groups = 3;
  grouped.in_h = 4, grouped.pad_top = 1;
  ExpectConvByHand(grouped, 5);
}

TEST(Fp16Conv, SizesCountTwoBytesAnElement) {
  ConvArgs c = testing::SquareConv(3, 8, 4, 5);
  const uint64_t in = ConvInputBytes(c), wt = ConvWeightBytes(c);
  c.fp16 = true;
  EXPECT_EQ(ConvInputBytes(c), 2 * in);
  EXPECT_EQ(ConvWeightBytes(c), 2 * wt);
  EXPECT_EQ(ConvOperandRegions(c)[1].bytes(), 2 * in);
}

TEST(Fp16Conv, ChecksRefuseInt4ZeroPointsAndPadValues) {
  ConvArgs c = testing::SquareConv(1, 4, 4, 2);
  c.fp16 = true;
  EXPECT_EQ(CheckConv(c), "");
  c.weights_int4 = true;
  EXPECT_EQ(CheckConv(c), "fp16 with weights_int4");
  c.weights_int4 = false;
  for (int32_t ConvArgs::*field :
       {&ConvArgs::in_zero_point, &ConvArgs::wt_zero_point, &ConvArgs::pad_value}) {
    ConvArgs bad = c;
    bad.*field = 1;
    EXPECT_NE(CheckConv(bad).find("fp16 with a zero point"), std::string::npos);
  }
}

std::vector<uint8_t> BiasRecords(const std::vector<float>& bias) {
  std::vector<uint8_t> block(bias.size() * kActParamBytes);
  for (uint32_t n = 0; n < bias.size(); ++n) {
    WriteActParams(block, n, {static_cast<int32_t>(Bits(bias[n])), 0, 0});  // shift unused
  }
  return block;
}

TEST(Fp16Act, AddsTheBiasInFp32RoundsToFp16AndClamps) {
  ActArgs a;
  a.fp16 = true;
  a.pixels = 2, a.channels = 3, a.out_pixel_stride = 3;
  a.fp16_clamp_min = H(0), a.fp16_clamp_max = H(6);  // ReLU6
  const std::vector<float> acc_values = {
      1.0f + std::ldexp(1.0f, -11),  // + 2^-24: FP32's tie goes to 1 + 2^-11, then FP16's to 1
      2.5f, -3.0f, 7.0f, std::nanf(""), 1.0f / 3};
  const std::vector<float> bias = {std::ldexp(1.0f, -24), 0.25f, 1.0f};
  std::vector<int32_t> acc;
  for (float v : acc_values) acc.push_back(static_cast<int32_t>(Bits(v)));
  std::vector<int8_t> out;
  ASSERT_EQ(ComputeAct(a, acc, BiasRecords(bias), {}, out), regs::ErrorCode::kNone);
  ASSERT_EQ(out.size(), 12u);
  const std::vector<Fp16> want = {0x3C00, H(2.75f), H(0), H(6), kFp16NaN, H(1.0f / 3 + 1)};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(LoadFp16(out.data(), i), want[i]) << i;
  EXPECT_EQ(ActOutputSpan(a), 12u);
  a.out_pixel_stride = 5;
  EXPECT_EQ(ActOutputSpan(a), 16u);  // (pixels - 1) * stride + channels elements
  a.use_table = true;
  EXPECT_EQ(CheckAct(a), "fp16 with use_table");
}

TEST(Fp16Pool, MaxPropagatesNaNAndAverageDividesInFp32) {
  PoolArgs p;
  p.fp16 = true;
  p.in_h = 2, p.in_w = 2, p.channels = 2;
  p.kernel_h = p.kernel_w = 2, p.stride_h = p.stride_w = 2;
  p.out_h = p.out_w = 1, p.out_pixel_stride = 2;
  p.shift = 0;  // unused with fp16
  // Channel 0: 1, 2, 3, 5; channel 1: -1, NaN, 4, 0.
  const std::vector<float> in = {1, -1, 2, std::nanf(""), 3, 4, 5, 0};
  ASSERT_EQ(CheckPool(p), "");
  std::vector<int8_t> out;
  ComputePool(p, ToBytes(in), out);
  EXPECT_EQ(LoadFp16(out.data(), 0), H(5));
  EXPECT_EQ(LoadFp16(out.data(), 1), kFp16NaN);
  p.mode = uint32_t(PoolMode::kAverage);
  p.pad_top = 1, p.out_h = 2, p.in_h = 2;  // row 0 of the output sees padding only above
  p.count_include_pad = false;
  ComputePool(p, ToBytes(in), out);
  EXPECT_EQ(LoadFp16(out.data(), 0), H(1.5f));  // taps 1, 2 (the window's second row)
  EXPECT_EQ(LoadFp16(out.data(), 2), H(4.0f));  // taps 3, 5
  p.count_include_pad = true;
  ComputePool(p, ToBytes(in), out);
  EXPECT_EQ(LoadFp16(out.data(), 0), H(0.75f));  // 3 / 4
  EXPECT_EQ(PoolInputBytes(p), 16u);
}

TEST(Fp16Eltwise, CombinesRoundsAndAppliesReluWithBroadcast) {
  EltwiseArgs e;
  e.fp16 = true;
  e.count = 4, e.channels = 2;
  e.broadcast = uint32_t(Broadcast::kChannel);
  e.shift = 0;  // unused with fp16
  const std::vector<float> a = {1, -3, 65504, 0.5f}, b = {32, 1};
  std::vector<int8_t> out;
  ASSERT_EQ(CheckEltwise(e), "");
  ComputeEltwise(e, ToBytes(a), ToBytes(b), out);
  EXPECT_EQ(LoadFp16(out.data(), 0), H(33));
  EXPECT_EQ(LoadFp16(out.data(), 1), H(-2));
  EXPECT_EQ(LoadFp16(out.data(), 2), kFp16Inf);  // 65536: beyond 65504 + half an ulp
  e.fp16_relu = true;
  e.op = uint32_t(EltwiseOp::kMul);
  ComputeEltwise(e, ToBytes(a), ToBytes(b), out);
  EXPECT_EQ(LoadFp16(out.data(), 0), H(32));
  EXPECT_EQ(LoadFp16(out.data(), 1), H(0));  // -3 x 1 below 0: +0
  EXPECT_EQ(LoadFp16(out.data(), 3), H(0.5f));
  EXPECT_EQ(EltwiseBytes(e), 8u);
  EXPECT_EQ(EltwiseBBytes(e), 4u);
  e.fp16 = false;
  EXPECT_EQ(CheckEltwise(e), "fp16_relu without fp16");
}

TEST(Fp16Timing, PesAndLanesTakeTheirFp16Cycles) {
  NpuConfig c = ::npu::testing::HandConfig();  // fp16_mac_cycles 2, fp16_element_cycles 2
  ConvArgs conv = testing::SquareConv(3, 32, 32, 8);
  const uint64_t int8_stream = ConvStream(c, conv);
  conv.fp16 = true;
  EXPECT_EQ(ConvStream(c, conv), 2 * int8_stream);  // WS: each of M vectors takes 2 cycles
  c.mutable_mac()->set_fp16_mac_cycles(4);
  EXPECT_EQ(ConvStream(c, conv), 4 * int8_stream);
  c.mutable_mac()->set_dataflow(OUTPUT_STATIONARY);
  EXPECT_EQ(ConvStream(c, conv), 4 * ConvGemm(conv).k);
  // The feeder reads twice the bytes.
  const NpuConfig d = ::npu::testing::HandConfig();
  ConvArgs int8 = conv;
  int8.fp16 = false;
  EXPECT_EQ(ConvStreamReads(d, conv).bytes, 2 * ConvStreamReads(d, int8).bytes);
  EltwiseArgs e;
  e.count = 640;
  const uint64_t int8_cycles = IdealCycles(d, {Opcode::kEltwise, 0, 0, e});
  e.fp16 = true;
  EXPECT_EQ(int8_cycles, 4u + 2 * 640 / 32);
  EXPECT_EQ(IdealCycles(d, {Opcode::kEltwise, 0, 0, e}), 4u + 2 * 2 * 640 / 32);
}

TEST(Fp16Config, RatesAreValidatedAndOutOfTheFingerprintAtTheirDefaults) {
  NpuConfig c = ::npu::testing::HandConfig();
  const uint64_t fingerprint = Fingerprint(c);
  c.mutable_mac()->clear_fp16_mac_cycles();
  c.mutable_act()->clear_fp16_element_cycles();
  EXPECT_EQ(Fingerprint(c), fingerprint);
  c = ::npu::testing::HandConfig();
  c.mutable_mac()->set_fp16_mac_cycles(3);
  Status s = Validate(c);
  EXPECT_NE(s.message().find("mac.fp16_mac_cycles = 3"), std::string::npos) << s.message();
  c = ::npu::testing::HandConfig();
  c.mutable_act()->set_fp16_element_cycles(4);
  s = Validate(c);
  EXPECT_NE(s.message().find("act.fp16_element_cycles"), std::string::npos) << s.message();
  c.mutable_act()->set_fp16_element_cycles(1);
  EXPECT_TRUE(Validate(c).ok());
}

TEST(Fp16Isa, FlagsAndClampsEncodeAndDecode) {
  ActArgs a;
  a.pixels = a.channels = a.out_pixel_stride = 1;
  a.fp16 = true, a.fp16_clamp_min = 0x0000, a.fp16_clamp_max = 0x4600;
  EltwiseArgs e;
  e.count = 1, e.fp16 = true, e.fp16_relu = true;
  PoolArgs p;
  p.fp16 = true;
  ConvArgs conv = testing::SquareConv(1, 1, 1, 1);
  conv.fp16 = true;
  for (const Instruction& insn : {Instruction{Opcode::kAct, 0, 0, a},
                                  Instruction{Opcode::kEltwise, 0, 0, e},
                                  Instruction{Opcode::kPool, 0, 0, p},
                                  Instruction{Opcode::kConv, 0, 0, conv}}) {
    StatusOr<InsnWord> word = Encode(insn);
    ASSERT_TRUE(word.ok()) << word.status().message();
    StatusOr<Instruction> back = Decode(word->data());
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, insn);
    EXPECT_NE(Disassemble(insn).find("fp16=1"), std::string::npos) << Disassemble(insn);
  }
}

}  // namespace
}  // namespace npu::spec
