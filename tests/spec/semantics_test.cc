// What POOL, ADD and CONV (depthwise, zero points, weights_kn) compute, against hand-computed
// values, and which CONV fields fault.
#include "hw/spec/layer_norm.h"
#include "hw/spec/semantics.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <span>

namespace npu::spec {
namespace {

TEST(RoundDiv, HalvesGoTowardsPositiveInfinity) {
  EXPECT_EQ(RoundDiv(5, 2), 3);    // 2.5
  EXPECT_EQ(RoundDiv(-5, 2), -2);  // -2.5
  EXPECT_EQ(RoundDiv(-7, 2), -3);  // -3.5
  EXPECT_EQ(RoundDiv(7, 3), 2);    // 2.33
  EXPECT_EQ(RoundDiv(-7, 3), -2);  // -2.33
  EXPECT_EQ(RoundDiv(-8, 3), -3);  // -2.67
  EXPECT_EQ(RoundDiv(0, 9), 0);
}

// A 3x3 single-channel region 1..9, 2x2 windows, stride 1, one row/col of padding top-left.
PoolArgs Pool3x3(PoolMode mode) {
  PoolArgs p;
  p.in_h = p.in_w = 3;
  p.channels = 1;
  p.pad_top = p.pad_left = 1;
  p.kernel_h = p.kernel_w = 2;
  p.out_h = p.out_w = 3;
  p.out_pixel_stride = 1;
  p.mode = uint32_t(mode);
  return p;
}
const std::vector<int8_t> kOneToNine = {1, 2, 3, 4, 5, 6, 7, 8, 9};

TEST(Pool, MaxSkipsPadding) {
  std::vector<int8_t> out;
  const std::vector<int8_t> negative = {-1, -2, -3, -4, -5, -6, -7, -8, -9};
  ComputePool(Pool3x3(PoolMode::kMax), negative, out);
  EXPECT_EQ(out, (std::vector<int8_t>{-1, -1, -2, -1, -1, -2, -4, -4, -5}));
}

TEST(Pool, AverageExcludingPadding) {
  PoolArgs p = Pool3x3(PoolMode::kAverage);
  p.multiplier = 1 << 30;  // x 1.0 with shift 30
  p.shift = 30;
  std::vector<int8_t> out;
  ComputePool(p, kOneToNine, out);
  // Windows: {1}=1, {1,2}=1.5->2, {2,3}=2.5->3, {1,4}=2.5->3, {1,2,4,5}=3, {2,3,5,6}=4,
  // {4,7}=5.5->6, {4,5,7,8}=6, {5,6,8,9}=7.
  EXPECT_EQ(out, (std::vector<int8_t>{1, 2, 3, 3, 3, 4, 6, 6, 7}));
}

TEST(Pool, AverageIncludingPaddingWithZeroPointsAndScale) {
  PoolArgs p = Pool3x3(PoolMode::kAverage);
  p.count_include_pad = true;
  p.in_zero_point = 1;  // x - 1: 0..8
  p.out_zero_point = -3;
  p.multiplier = 1 << 30;  // x 0.5 with shift 31
  p.shift = 31;
  std::vector<int8_t> out;
  ComputePool(p, kOneToNine, out);
  // Last window {5,6,8,9} - 1 = {4,5,7,8}: 24/4 = 6, * 0.5 = 3, - 3 = 0.
  // First window {1} - 1 = 0 over 4: 0 -> -3. Second {1,2}-1 = 1/4 = 0.25 -> 0 -> -3.
  EXPECT_EQ(out[8], 0);
  EXPECT_EQ(out[0], -3);
  EXPECT_EQ(out[1], -3);
}

// A global average pool over a 6x5x3 region, as one POOL and as two row strips' sums (the
// second accumulating) and their mean: the same bytes, since the sums are exact and the mean
// rounds once.
PoolArgs GlobalAverage6x5x3() {
  PoolArgs p;
  p.in_h = p.kernel_h = 6;
  p.in_w = p.kernel_w = 5;
  p.channels = 3;
  p.out_h = p.out_w = 1;
  p.out_pixel_stride = 3;
  p.mode = uint32_t(PoolMode::kAverage);
  p.in_zero_point = -7, p.out_zero_point = 4;
  p.multiplier = 1518500250, p.shift = 30;  // x 1.414
  return p;
}

TEST(Pool, StripSumsAndTheirMeanEqualTheAverage) {
  std::vector<int8_t> input(6 * 5 * 3);
  for (size_t i = 0; i < input.size(); ++i) input[i] = int8_t((i * 73) % 256 - 128);
  const PoolArgs whole = GlobalAverage6x5x3();
  std::vector<int8_t> expected;
  ComputePool(whole, input, expected);

  PoolArgs sum = whole;
  sum.mode = uint32_t(PoolMode::kSum);
  sum.in_h = sum.kernel_h = 2;  // rows 0-1, then rows 2-5
  std::vector<int8_t> sums;
  ComputePool(sum, std::span(input).first(2 * 5 * 3), sums);
  ASSERT_EQ(sums.size(), 3u * kPoolSumBytes);
  EXPECT_EQ(PoolOutputSpan(sum), 3u * kPoolSumBytes);
  sum.in_h = sum.kernel_h = 4;
  sum.accumulate = true;
  std::vector<int8_t> total;
  ComputePool(sum, std::span(input).subspan(2 * 5 * 3), sums, total);
  int32_t first = 0;  // channel 0's sum of x - zp, by hand
  for (size_t i = 0; i < input.size(); i += 3) first += input[i] + 7;
  EXPECT_EQ(int32_t(uint8_t(total[0]) | uint8_t(total[1]) << 8 | uint8_t(total[2]) << 16 |
                    uint8_t(total[3]) << 24),
            first);

  PoolArgs mean = whole;
  mean.mode = uint32_t(PoolMode::kMeanOfSums);
  mean.in_h = mean.in_w = 1;  // the kernel stays 6x5: the window the sums are of
  EXPECT_EQ(PoolInputBytes(mean), 3u * kPoolSumBytes);
  std::vector<int8_t> out;
  ComputePool(mean, total, out);
  EXPECT_EQ(out, expected);
}

TEST(Pool, SumModesFaultOutsideTheirUse) {
  PoolArgs p = GlobalAverage6x5x3();
  p.accumulate = true;
  EXPECT_EQ(CheckPool(p), "accumulate without the sum mode");
  p.mode = uint32_t(PoolMode::kSum);
  EXPECT_EQ(CheckPool(p), "");
  p.fp16 = true;
  EXPECT_EQ(CheckPool(p), "fp16 with a sum or mean-of-sums pool (int8 only)");
  p = GlobalAverage6x5x3();
  p.mode = uint32_t(PoolMode::kMeanOfSums);
  EXPECT_EQ(CheckPool(p), "mean of sums from 6x5 sums to a 1x1 output (one mean a sum)");
  p.in_h = p.in_w = 1;
  EXPECT_EQ(CheckPool(p), "");
  p.shift = 0;
  EXPECT_EQ(CheckPool(p), "average pool shift 0 outside 1..62");
}

TEST(RescaledMean, RoundsOnceAtTheOutputsScale) {
  // A window mean of 1/4 scaled by 2.0 is 0.5, which rounds (half up) to 1; rounding the mean to
  // the input's scale first (0) and then scaling would give 0.
  EXPECT_EQ(RescaledMean(1, 4, 1 << 30, 29), 1);
  EXPECT_EQ(RescaledMean(-1, 4, 1 << 30, 29), 0);   // -0.5: halves towards +infinity
  EXPECT_EQ(RescaledMean(-3, 4, 1 << 30, 29), -1);  // -1.5
  EXPECT_EQ(RescaledMean(24, 4, 1 << 30, 31), 3);   // 6 * 0.5
}

TEST(RescaledMean, SaturatesToInt32AndNeverOverflows) {
  // A CPU op's count is bounded only by its tensor: a sum far beyond what a pool can reach.
  EXPECT_EQ(RescaledMean(int64_t{1} << 40, 1, INT32_MAX, 1), INT32_MAX);
  EXPECT_EQ(RescaledMean(-(int64_t{1} << 40), 1, INT32_MAX, 1), INT32_MIN);
  EXPECT_EQ(RescaledMean(INT64_MAX, INT64_MAX, 1 << 30, 30), 1);
}

TEST(Eltwise, AddRescalesBothInputsAndClamps) {
  EltwiseArgs a;
  a.count = 4;
  a.a_zero_point = 10;
  a.b_zero_point = -5;
  a.out_zero_point = 3;
  a.a_multiplier = 1 << 14;  // 0.5 with shift 15
  a.b_multiplier = 3 << 14;  // 1.5
  a.shift = 15;
  a.clamp_min = 3;  // ReLU at the output zero point
  std::vector<int8_t> out;
  ComputeEltwise(a, std::vector<int8_t>{20, 10, 0, 127}, std::vector<int8_t>{-5, -3, -9, 127}, out);
  // (10*0.5 + 0*1.5) + 3 = 8; (0 + 2*1.5) + 3 = 6; (-10*0.5 + -4*1.5) + 3 = -8 -> 3 (ReLU);
  // (117*0.5 + 132*1.5) + 3 = 259.5 -> 127.
  EXPECT_EQ(out, (std::vector<int8_t>{8, 6, 3, 127}));
}

TEST(Conv, DepthwiseSeesOnlyItsChannel) {
  ConvArgs c;
  c.in_h = c.in_w = 2;
  c.in_c = c.out_c = 2;
  c.kernel_h = c.kernel_w = 2;
  c.out_h = c.out_w = 1;
  c.depthwise = true;
  // HWC input: channel 0 = 1,2,3,4; channel 1 = 10,20,30,40.
  const std::vector<int8_t> input = {1, 10, 2, 20, 3, 30, 4, 40};
  const std::vector<int8_t> weights = {1, 1, 1, 1, 1, 0, 0, -1};  // [c][kh][kw]
  std::vector<int32_t> acc(2);
  ComputeConv(c, input, weights, acc);
  EXPECT_EQ(acc, (std::vector<int32_t>{10, 10 - 40}));
  EXPECT_EQ(ConvWeightBytes(c), 8u);
}

// LNORM: each pixel's statistics, its normalised values in 4096ths of a standard deviation,
// then gamma, beta and the requantisation per channel; by hand.
TEST(Lnorm, NormalisesEachPixelThenScalesAndRequantisesPerChannel) {
  LnormArgs n;
  n.pixels = 2, n.channels = 4;
  n.in_zero_point = 1, n.out_zero_point = 3, n.eps_term = 1;
  n.clamp_min = -128, n.clamp_max = 100;
  const std::vector<int8_t> input = {1, 3, 5, 7,   // X = 0 2 4 6
                                     9, 9, 9, 9};  // X = 8 8 8 8: no spread
  std::vector<uint8_t> params(4 * kLnormParamBytes);
  WriteLnormParams(params, 0, {2, 0, 1 << 30, 40});      // gamma 2, y = acc / 1024
  WriteLnormParams(params, 1, {-1, 100, 1 << 30, 40});   // gamma -1, beta 100
  WriteLnormParams(params, 2, {127, 0, 1 << 30, 40});    // gamma 127
  WriteLnormParams(params, 3, {1, -5461, 1 << 30, 31});  // gamma 1, beta -5461, y = acc / 2
  EXPECT_EQ(ReadLnormParams(params, 1).beta, 100);
  std::vector<int8_t> out;
  ASSERT_EQ(ComputeLnorm(n, input, params, out), regs::ErrorCode::kNone);
  // Pixel 0: S1 = 12, S2 = 56, sd = ISqrt(4*56 - 144 + 1) = 9; q = RoundDiv((4X - 12) * 4096, 9)
  // = -5461, -1820, 1820, 5461. Channel 0: -10922 / 1024 -> -11, + 3 = -8. Channel 1: 1820 + 100
  // = 1920 / 1024 -> 2, + 3 = 5. Channel 2: 231140 / 1024 -> 226 + 3 -> clamp_max 100. Channel 3:
  // 5461 - 5461 = 0, + 3 = 3.
  // Pixel 1: sd = ISqrt(0 + 1) = 1, q = 0: beta alone: 3, 100 / 1024 -> 0 + 3, 3, and -5461 / 2
  // -> -2730, + 3 -> clamp_min -128.
  EXPECT_EQ(out, (std::vector<int8_t>{-8, 5, 100, 3, 3, 3, 3, -128}));
  EXPECT_EQ(LnormBytes(n), 8u);
  EXPECT_EQ(LnormParamBytes(n), 64u);
  WriteLnormParams(params, 2, {128, 0, 1 << 30, 40});  // gamma outside int8
  EXPECT_EQ(ComputeLnorm(n, input, params, out), regs::ErrorCode::kBadParameter);
  WriteLnormParams(params, 2, {127, 0, 1 << 30, 63});  // shift outside 1..62
  EXPECT_EQ(ComputeLnorm(n, input, params, out), regs::ErrorCode::kBadParameter);
  EXPECT_EQ(CheckLnorm(n), "");
  n.pixels = 0;
  EXPECT_EQ(CheckLnorm(n), "empty tile");
}

// DWCONV: a padded, strided depthwise window per channel, then ACT's requantisation; by hand.
TEST(DwConv, ConvolvesEachChannelThenRequantises) {
  DwConvArgs d;
  d.in_h = 2, d.in_w = 3, d.channels = 2;
  d.kernel_h = d.kernel_w = 2;
  d.pad_top = 1, d.pad_left = 0, d.pad_value = -1;
  d.stride_h = 1, d.stride_w = 2;
  d.out_h = 2, d.out_w = 1;
  d.out_pixel_stride = 2;
  d.out_zero_point = 3;
  d.clamp_min = -128, d.clamp_max = 30;
  // HWC input: channel 0 = [1 2 3; 4 5 6], channel 1 = [10 20 30; 40 50 60].
  const std::vector<int8_t> input = {1, 10, 2, 20, 3, 30, 4, 40, 5, 50, 6, 60};
  const std::vector<int8_t> weights = {1, 2, 3, 4,     // channel 0 [kh][kw]
                                       -1, 0, 0, 1};   // channel 1
  std::vector<uint8_t> params(2 * kActParamBytes);
  WriteActParams(params, 0, {5, 1 << 30, 31});  // (acc + 5) / 2
  WriteActParams(params, 1, {0, 1 << 30, 30});  // acc + 0
  std::vector<int8_t> out;
  ASSERT_EQ(ComputeDwConv(d, input, weights, params, out), regs::ErrorCode::kNone);
  // Output row 0 reads padding row -1 and input row 0, columns 0..1:
  //   channel 0: -1*1 + -1*2 + 1*3 + 2*4 = 8 -> (8 + 5) / 2 = 6.5 -> 7, + 3 = 10
  //   channel 1: -1*-1 + 20*1 = 21 -> 21 + 3 = 24
  // Output row 1 reads rows 0..1: channel 0: 1 + 4 + 12 + 20 = 37 -> 21, + 3 = 24;
  //   channel 1: -10 + 50 = 40 -> 43 -> clamp_max 30.
  EXPECT_EQ(out, (std::vector<int8_t>{10, 24, 24, 30}));
  EXPECT_EQ(DwConvWeightBytes(d), 8u);
  EXPECT_EQ(DwConvParamBytes(d), 24u);
  EXPECT_EQ(DwConvOutputSpan(d), 4u);
  EXPECT_EQ(DwConvOf(DwConvAsConv(d), DwConvAsAct(d)), d);  // the two directions agree
  d.kernel_w = 0;
  EXPECT_EQ(CheckDwConv(d), "zero kernel size");
  d.kernel_w = 2, d.out_pixel_stride = 1;
  EXPECT_NE(CheckDwConv(d).find("pixels would overlap"), std::string::npos);
}

// A grouped CONV is, group by group, an ordinary CONV over the group's channel slice.
TEST(Conv, GroupsSeeOnlyTheirChannels) {
  ConvArgs c;
  c.in_h = c.in_w = 3;
  c.in_c = 6, c.out_c = 4, c.groups = 2;  // 3 input, 2 output channels a group
  c.kernel_h = c.kernel_w = 2;
  c.out_h = c.out_w = 2;
  c.in_zero_point = 3, c.wt_zero_point = -1;
  std::vector<int8_t> input(3 * 3 * 6), weights(4 * 2 * 2 * 3);
  for (size_t i = 0; i < input.size(); ++i) input[i] = int8_t(int(i * 37 % 251) - 125);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = int8_t(int(i * 53 % 241) - 120);
  EXPECT_EQ(CheckConv(c), "");
  EXPECT_EQ(ConvWeightRowValues(c), 12u);
  std::vector<int32_t> acc(2 * 2 * 4);
  ComputeConv(c, input, weights, acc);
  for (uint32_t g = 0; g < 2; ++g) {
    ConvArgs one = c;
    one.groups = 1, one.in_c = 3, one.out_c = 2;
    std::vector<int8_t> slice;
    for (size_t p = 0; p < 9; ++p) {
      slice.insert(slice.end(), input.begin() + p * 6 + g * 3, input.begin() + p * 6 + g * 3 + 3);
    }
    const std::vector<int8_t> w(weights.begin() + g * 24, weights.begin() + g * 24 + 24);
    std::vector<int32_t> part(2 * 2 * 2);
    ComputeConv(one, slice, w, part);
    for (size_t p = 0; p < 4; ++p) {
      EXPECT_EQ(acc[p * 4 + g * 2], part[p * 2]) << "pixel " << p << " group " << g;
      EXPECT_EQ(acc[p * 4 + g * 2 + 1], part[p * 2 + 1]) << "pixel " << p << " group " << g;
    }
  }
  c.groups = 4;  // does not divide in_c 6
  EXPECT_NE(CheckConv(c), "");
  c.groups = 0;
  EXPECT_NE(CheckConv(c), "");
  c.groups = 2, c.depthwise = true;
  EXPECT_NE(CheckConv(c), "");
}

// A 1x1 CONV over a 1 x 2 x 3 region (two pixels, K = 3) into N = 2 channels.
ConvArgs MatMulTile() {
  ConvArgs c;
  c.in_h = 1, c.in_w = 2, c.in_c = 3;
  c.out_h = 1, c.out_w = 2, c.out_c = 2;
  return c;
}

TEST(Conv, ZeroPointsAreSubtractedFromBothOperands) {
  ConvArgs c = MatMulTile();
  c.in_zero_point = 10;
  c.wt_zero_point = -2;
  const std::vector<int8_t> a = {11, 12, 13, -118, 10, 127};  // minus 10: 1 2 3 / -128 0 117
  const std::vector<int8_t> w = {-1, 0, 1, 2, -2, -2};        // [n][c]; plus 2: 1 2 3 / 4 0 0
  std::vector<int32_t> acc(4);
  ComputeConv(c, a, w, acc);
  // Pixel 0: 1*1 + 2*2 + 3*3 = 14, 1*4 = 4. Pixel 1: -128*1 + 0 + 117*3 = 223, -128*4 = -512.
  EXPECT_EQ(acc, (std::vector<int32_t>{14, 4, 223, -512}));
}

TEST(Conv, WeightsKnReadsOneRowOfOutChannelsPerReductionIndex) {
  ConvArgs c = MatMulTile();
  const std::vector<int8_t> a = {1, 2, 3, 4, 5, 6};
  const std::vector<int8_t> kn = {1, 4, 2, 0, 3, -1};  // [c][n]: the transpose of [n][c] below
  const std::vector<int8_t> nk = {1, 2, 3, 4, 0, -1};
  std::vector<int32_t> from_kn(4), from_nk(4);
  c.weights_kn = true;
  ComputeConv(c, a, kn, from_kn);
  c.weights_kn = false;
  ComputeConv(c, a, nk, from_nk);
  // Pixel 0: 1+4+9 = 14, 4+0-3 = 1. Pixel 1: 4+10+18 = 32, 16+0-6 = 10.
  EXPECT_EQ(from_kn, (std::vector<int32_t>{14, 1, 32, 10}));
  EXPECT_EQ(from_kn, from_nk);
  EXPECT_EQ(ConvWeightBytes(c), 6u);  // the same bytes either way
}

// The largest operands: (-128 - 127) * (-128 - 127) = 65025 per product; 33025 of them fit
// int32, and a CONV accumulating past that wraps modulo 2^32.
TEST(Conv, NineBitProductsAndWrappingSums) {
  ConvArgs c;
  c.in_h = c.in_w = 1, c.in_c = 3;
  c.out_h = c.out_w = c.out_c = 1;
  c.weights_kn = true;
  c.in_zero_point = 127;
  c.wt_zero_point = 127;
  const std::vector<int8_t> a(3, -128), w(3, -128);
  std::vector<int32_t> acc = {INT32_MAX - 3 * 65025 + 1};
  c.accumulate = true;
  ComputeConv(c, a, w, acc);
  EXPECT_EQ(acc[0], INT32_MIN);  // INT32_MAX + 1 wraps
  acc = {0};
  c.accumulate = false;
  ComputeConv(c, a, w, acc);
  EXPECT_EQ(acc[0], 3 * 65025);
}

TEST(Conv, DepthwiseSubtractsZeroPointsToo) {
  ConvArgs c;
  c.in_h = 1, c.in_w = 2, c.in_c = c.out_c = 1;
  c.kernel_w = 2;
  c.out_h = c.out_w = 1;
  c.depthwise = true;
  c.in_zero_point = 1;
  c.wt_zero_point = -1;
  std::vector<int32_t> acc(1);
  ComputeConv(c, std::vector<int8_t>{3, 5}, std::vector<int8_t>{1, 2}, acc);
  EXPECT_EQ(acc[0], 2 * 2 + 4 * 3);
}

// Padding reads pad_value, from which in_zero_point is subtracted like from any input.
TEST(Conv, PaddingReadsPadValueMinusTheZeroPoint) {
  ConvArgs c;
  c.in_h = c.in_w = c.in_c = c.out_c = 1;
  c.kernel_w = 2;
  c.pad_left = 1;
  c.out_h = c.out_w = 1;
  c.pad_value = 7;
  c.in_zero_point = 4;
  std::vector<int32_t> acc(1);
  ComputeConv(c, std::vector<int8_t>{9}, std::vector<int8_t>{2, 3}, acc);
  EXPECT_EQ(acc[0], (7 - 4) * 2 + (9 - 4) * 3);
}

TEST(Conv, WeightsKnFaultsOutsideOneByOneKernels) {
  ConvArgs c = MatMulTile();
  c.weights_kn = true;
  EXPECT_EQ(CheckConv(c), "");
  c.kernel_h = 2;
  c.in_h = 2;
  EXPECT_EQ(CheckConv(c), "weights_kn with a 2x1 kernel (1x1 only)");
  c.kernel_h = 1, c.kernel_w = 3;
  EXPECT_EQ(CheckConv(c), "weights_kn with a 1x3 kernel (1x1 only)");
  c = MatMulTile();
  c.weights_kn = c.depthwise = true;
  c.in_c = c.out_c;
  EXPECT_EQ(CheckConv(c), "weights_kn with depthwise");
}

}  // namespace
}  // namespace npu::spec
