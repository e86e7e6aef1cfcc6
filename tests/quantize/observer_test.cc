// Observers: histogram binning, percentile tails, the MSE search (which clips a far outlier and
// keeps a dense range), determinism.
#include "compiler/quantize/observer.h"

#include <gtest/gtest.h>

#include <random>

namespace npu::compiler::quantize {
namespace {

TEST(Histogram, BinsValuesIncludingTheEnds) {
  Histogram h(0.0f, 4.0f, 4);
  const std::vector<float> v = {0.0f, 0.5f, 1.0f, 3.99f, 4.0f, -1.0f, 9.0f};
  h.Add(v);
  EXPECT_EQ(h.counts(), (std::vector<int64_t>{3, 1, 0, 3}));
  EXPECT_EQ(h.total(), 7);
  EXPECT_DOUBLE_EQ(h.Edge(4), 4.0);
}

TEST(PercentileRange, DropsTheTailsOnly) {
  // 10000 values 0..9999 / 100 plus one outlier at 1000: 99.9% keeps [~0, ~100).
  std::vector<float> v;
  for (int i = 0; i < 10000; ++i) v.push_back(i / 100.0f);
  v.push_back(1000.0f);
  Histogram h(0.0f, 1000.0f, 4000);
  h.Add(v);
  const ValueRange r = PercentileRange(h, 99.9);
  EXPECT_EQ(r.lo, 0.0f);
  EXPECT_NEAR(r.hi, 100.0f, 0.5f);
  const ValueRange all = PercentileRange(h, 100.0);
  EXPECT_EQ(all.lo, 0.0f);
  EXPECT_FLOAT_EQ(all.hi, 1000.0f);
}

TEST(MseRange, ClipsAFarOutlierButNotTheBulk) {
  std::mt19937 rng(1);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> v;
  // Keeping one value at 20 costs every other value resolution: with a million values the
  // clipping error (20 - hi)^2 is the cheaper one.
  for (int i = 0; i < 1000000; ++i) v.push_back(normal(rng));
  v.push_back(20.0f);
  const float lo = *std::min_element(v.begin(), v.end());
  Histogram h(lo, 20.0f, 2048);
  h.Add(v);
  const ValueRange r = MseRange(h);
  EXPECT_LT(r.hi, 10.0f);  // the outlier is not worth 8 bits of resolution
  EXPECT_GT(r.hi, 2.5f);   // the Gaussian's bulk is
  EXPECT_LT(r.lo, -2.5f);
}

TEST(MseRange, KeepsAUniformRange) {
  std::vector<float> v;
  for (int i = 0; i <= 1000; ++i) v.push_back(i / 1000.0f);
  Histogram h(0.0f, 1.0f, 256);
  h.Add(v);
  const ValueRange r = MseRange(h);
  EXPECT_EQ(r.lo, 0.0f);
  EXPECT_GT(r.hi, 0.99f);
}

TEST(Observers, SameValuesSameRangeBitForBit) {
  std::vector<float> v;
  for (int i = 0; i < 5000; ++i) v.push_back(std::sin(i * 0.37f) * (i % 17));
  const auto range = [&] {
    Histogram h(-16.0f, 16.0f, 2048);
    h.Add(v);
    return std::make_pair(MseRange(h), PercentileRange(h, 99.99));
  };
  const auto a = range(), b = range();
  EXPECT_EQ(a.first.lo, b.first.lo);
  EXPECT_EQ(a.first.hi, b.first.hi);
  EXPECT_EQ(a.second.lo, b.second.lo);
  EXPECT_EQ(a.second.hi, b.second.hi);
}

}  // namespace
}  // namespace npu::compiler::quantize
