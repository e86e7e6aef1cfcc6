// The quantiser's arithmetic: activation parameters, per-channel weights, int32 bias, the
// multipliers of conv/gemm, pools and adds, the clamps; and requantisation of the integers the
// quantiser derives (ties, negative values, saturation at both ends) against exact arithmetic.
#include "compiler/quantize/quant_params.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "hw/spec/arith.h"

namespace npu::compiler::quantize {
namespace {

TEST(ActivationParams, CoversTheRangeWidenedToZero) {
  // [-1.28, 1.27]: scale 0.01, zero point -128 + 128 = 0.
  ir::QuantParams q = ActivationParams({-1.28f, 1.27f});
  EXPECT_FLOAT_EQ(q.scale[0], 0.01f);
  EXPECT_EQ(q.zero_point[0], 0);
  // A tie: [-1, 1] has -lo / scale = 127.5 up to the float scale's rounding; either neighbour.
  q = ActivationParams({-1.0f, 1.0f});
  EXPECT_FLOAT_EQ(q.scale[0], 2.0f / 255.0f);
  EXPECT_TRUE(q.zero_point[0] == 0 || q.zero_point[0] == -1);
  // ReLU outputs [0, 6]: zero point -128, 0 exact.
  q = ActivationParams({0.0f, 6.0f});
  EXPECT_FLOAT_EQ(q.scale[0], 6.0f / 255.0f);
  EXPECT_EQ(q.zero_point[0], -128);
  // An all-positive range still contains 0; an all-negative one gives zero point 127.
  EXPECT_EQ(ActivationParams({2.0f, 3.0f}).zero_point[0], -128);
  EXPECT_FLOAT_EQ(ActivationParams({2.0f, 3.0f}).scale[0], 3.0f / 255.0f);
  EXPECT_EQ(ActivationParams({-5.0f, -1.0f}).zero_point[0], 127);
  // A constant-zero tensor gets a small positive scale, not 0.
  EXPECT_GT(ActivationParams({0.0f, 0.0f}).scale[0], 0.0f);
}

TEST(QuantizeWeightRows, SymmetricPerRowHalfToEven) {
  // Row 0 max 1.27 -> scale 0.01; 0.005 / 0.01 = 0.5 -> 0, 0.015 -> 2 (half to even).
  // Row 1 all zero: takes the largest row's scale. Row 2: tiny, floored at 2^-16 of it.
  const std::vector<float> rows = {1.27f, -0.635f, 0.005f, 0.015f, 0, 0, 0, 0, 1e-9f, 0, 0, 0};
  const QuantizedWeights q = QuantizeWeightRows(rows, 4);
  ASSERT_EQ(q.scales.size(), 3u);
  EXPECT_FLOAT_EQ(q.scales[0], 0.01f);
  EXPECT_FLOAT_EQ(q.scales[1], 0.01f);
  EXPECT_FLOAT_EQ(q.scales[2], 0.01f / 65536);
  EXPECT_EQ(std::vector<int8_t>(q.values.begin(), q.values.begin() + 4),
            (std::vector<int8_t>{127, -64, 0, 2}));  // -63.5 -> -64 (half to even)
  EXPECT_EQ(q.values[8], 0);
}

TEST(QuantizeWeightRows, GivenScalesAreKeptAndSaturate) {
  const std::vector<float> given = {0.5f};
  const QuantizedWeights q =
      QuantizeWeightRows(std::vector<float>{1.0f, -100.0f, 100.0f, 0.25f}, 4, &given);
  EXPECT_EQ(q.scales, given);
  EXPECT_EQ(q.values, (std::vector<int8_t>{2, -128, 127, 0}));
}

TEST(QuantizeBias, AccumulatorScaleHalfToEvenAndSaturation) {
  int64_t saturated = 0;
  // s_x * s_w = 0.5 * 0.25 = 0.125: 0.3125 / 0.125 = 2.5 -> 2; -0.4375 -> -3.5 -> -4.
  std::vector<int32_t> q = QuantizeBias(std::vector<float>{0.3125f, -0.4375f, 1e12f, -1e12f}, 0.5f,
                                        std::vector<float>(4, 0.25f), saturated);
  EXPECT_EQ(q, (std::vector<int32_t>{2, -4, std::numeric_limits<int32_t>::max(),
                                     std::numeric_limits<int32_t>::min()}));
  EXPECT_EQ(saturated, 2);
  saturated = 0;
  EXPECT_EQ(QuantizeBias(std::vector<float>{}, 0.5f, std::vector<float>(3, 1.0f), saturated),
            (std::vector<int32_t>{0, 0, 0}));
}

TEST(FitFoldedBias, LeavesRoomForTheZeroPointsShareAndNothingElse) {
  // Rows of k = 2: sums 242 and -3; input zero point -128, so the folded biases are
  // bias + 128 * 242 and bias - 128 * 3.
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  const std::vector<int8_t> rows = {121, 121, -1, -2};
  std::vector<int32_t> bias = {kMax, kMin};
  int64_t saturated = 0;
  FitFoldedBias(bias, -128, rows, 2, saturated);
  EXPECT_EQ(bias, (std::vector<int32_t>{kMax - 128 * 242, kMin + 128 * 3}));
  EXPECT_EQ(saturated, 2);
  std::vector<int32_t> ordinary = {1000, -1000};
  FitFoldedBias(ordinary, -128, rows, 2, saturated);
  EXPECT_EQ(ordinary, (std::vector<int32_t>{1000, -1000}));  // far from the limits: unchanged
  EXPECT_EQ(saturated, 2);
}

TEST(RequantMultipliers, OnePairPerChannel) {
  StatusOr<ChannelMultipliers> m =
      RequantMultipliers(0.5f, std::vector<float>{0.25f, 0.75f}, 0.125f);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->multiplier, (std::vector<int64_t>{1 << 30, 1610612736}));  // 1.0, 3.0
  EXPECT_EQ(m->shift, (std::vector<int64_t>{30, 29}));
  EXPECT_FALSE(RequantMultipliers(1.0f, std::vector<float>{1e-30f}, 1.0f).ok());  // below 2^-32
}

TEST(AddMultipliers, LargestShiftKeepingBothInInt16) {
  StatusOr<AddMultipliers> m = ComputeAddMultipliers(0.5f, 0.25f, 0.5f);  // ratios 1, 0.5
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->a, 16384);
  EXPECT_EQ(m->b, 8192);
  EXPECT_EQ(m->shift, 14);
  m = ComputeAddMultipliers(0.3f, 0.1f, 0.2f);  // 1.5 and 0.5: shift 14, 24576 and 8192
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->shift, 14);
  EXPECT_EQ(m->a, 24576);
  EXPECT_EQ(m->b, 8192);
  // Ratios above 2 (their 2^62 multiple overflows int64): 3 and 0.5 take shift 13.
  m = ComputeAddMultipliers(3.0f, 0.5f, 1.0f);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->shift, 13);
  EXPECT_EQ(m->a, 24576);
  EXPECT_EQ(m->b, 4096);
  // A ratio of 2^15 cannot be represented with shift >= 1.
  EXPECT_FALSE(ComputeAddMultipliers(32768.0f, 1.0f, 1.0f).ok());
}

TEST(ActivationClamp, ReluAndRelu6InTheOutputDomain) {
  ir::QuantParams q{{0.05f}, {-100}, -1};
  EXPECT_EQ(ActivationClamp("none", q).min, -128);
  EXPECT_EQ(ActivationClamp("relu", q).min, -100);
  EXPECT_EQ(ActivationClamp("relu", q).max, 127);
  EXPECT_EQ(ActivationClamp("relu6", q).max, 20);                    // -100 + 6 / 0.05
  EXPECT_EQ(ActivationClamp("relu6", {{0.01f}, {0}, -1}).max, 127);  // 600 clipped
}

// y = clamp(round_half_up((acc + bias) * real) + zp), computed exactly in long double.
int32_t Exact(int64_t acc, int64_t bias, long double real, int32_t zp) {
  const long double v =
      static_cast<long double>(std::clamp<int64_t>(acc + bias, INT32_MIN, INT32_MAX));
  const long double r = std::floor(v * real + 0.5L) + zp;
  return static_cast<int32_t>(std::clamp(r, -128.0L, 127.0L));
}

TEST(Requantize, CompilerMultipliersRoundHalfUpAndSaturate) {
  // Scales whose multiplier is exact (powers of two and 3/4) make ties exact too.
  for (const double real : {0.5, 0.25, 0.75, 1.0 / 1024}) {
    StatusOr<QuantizedMultiplier> m = QuantizeMultiplier(real);
    ASSERT_TRUE(m.ok());
    for (int64_t acc = -5000; acc <= 5000; acc += 7) {
      for (const int32_t zp : {-128, -3, 0, 127}) {
        EXPECT_EQ(spec::Requantize(int32_t(acc), 0, m->multiplier, m->shift, zp, -128, 127),
                  Exact(acc, 0, real, zp))
            << "real " << real << " acc " << acc << " zp " << zp;
      }
    }
  }
  const QuantizedMultiplier half = *QuantizeMultiplier(0.5);
  EXPECT_EQ(spec::Requantize(3, 0, half.multiplier, half.shift, 0, -128, 127), 2);    // 1.5
  EXPECT_EQ(spec::Requantize(-3, 0, half.multiplier, half.shift, 0, -128, 127), -1);  // -1.5
  EXPECT_EQ(spec::Requantize(-5, 0, half.multiplier, half.shift, 0, -128, 127), -2);  // -2.5
  // Saturation at both ends, and of the int32 bias add.
  EXPECT_EQ(spec::Requantize(INT32_MAX, INT32_MAX, half.multiplier, half.shift, 0, -128, 127), 127);
  EXPECT_EQ(spec::Requantize(INT32_MIN, INT32_MIN, half.multiplier, half.shift, 0, -128, 127),
            -128);
  EXPECT_EQ(spec::Requantize(-1000, 0, half.multiplier, half.shift, 5, ReluClamp(5).min, 127), 5);
}

}  // namespace
}  // namespace npu::compiler::quantize
