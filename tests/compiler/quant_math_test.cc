// QuantizeMultiplier and the activation clamps.
#include "compiler/quant/quant_math.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace npu::compiler {
namespace {

QuantizedMultiplier Q(double real) {
  StatusOr<QuantizedMultiplier> q = QuantizeMultiplier(real);
  EXPECT_TRUE(q.ok()) << q.status().message();
  return q.ok() ? *q : QuantizedMultiplier{0, 0};
}

TEST(QuantizeMultiplier, PowersOfTwoAreExact) {
  EXPECT_EQ(Q(0.5).multiplier, 1 << 30);
  EXPECT_EQ(Q(0.5).shift, 31);
  EXPECT_EQ(Q(1.0).multiplier, 1 << 30);
  EXPECT_EQ(Q(1.0).shift, 30);
  EXPECT_EQ(Q(0.25).shift, 32);
}

TEST(QuantizeMultiplier, MultiplierIsNormalisedAndAccurate) {
  for (double real : {0.0003, 0.0123456, 0.7, 0.999, 1.5, 3.14159, 1234.5}) {
    const QuantizedMultiplier q = Q(real);
    EXPECT_GE(q.multiplier, 1 << 30) << real;
    EXPECT_LE(q.multiplier, INT32_MAX) << real;
    EXPECT_NEAR(DequantizeMultiplier(q) / real, 1.0, 1e-9) << real;
  }
}

TEST(QuantizeMultiplier, MantissaRoundingUpRenormalises) {
  const QuantizedMultiplier q = Q(1.0 - std::ldexp(1.0, -40));  // rounds to 2^31 * 2^-31
  EXPECT_EQ(q.multiplier, 1 << 30);
  EXPECT_EQ(q.shift, 30);
}

TEST(QuantizeMultiplier, ShiftRangeEdges) {
  EXPECT_EQ(Q(std::ldexp(1.0, -32)).shift, 62);
  EXPECT_EQ(Q(std::ldexp(1.5, 29)).shift, 1);
  EXPECT_FALSE(QuantizeMultiplier(std::ldexp(0.99, -32)).ok());  // needs shift 63
  EXPECT_FALSE(QuantizeMultiplier(std::ldexp(1.0, 30)).ok());    // needs shift 0
}

TEST(QuantizeMultiplier, RejectsNonPositiveAndNonFinite) {
  for (double bad : {0.0, -0.5, std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()}) {
    const StatusOr<QuantizedMultiplier> q = QuantizeMultiplier(bad);
    ASSERT_FALSE(q.ok()) << bad;
    EXPECT_EQ(q.status().kind(), ErrorKind::kInvalidArgument);
    EXPECT_NE(q.status().message().find("cannot be quantised"), std::string::npos);
  }
}

TEST(Clamps, ReluStartsAtTheZeroPoint) {
  EXPECT_EQ(ReluClamp(-20).min, -20);
  EXPECT_EQ(ReluClamp(-20).max, 127);
  EXPECT_EQ(NoActivationClamp().min, -128);
  EXPECT_EQ(NoActivationClamp().max, 127);
}

TEST(Clamps, Relu6QuantisesSix) {
  const ClampRange c = Relu6Clamp(0.05f, -10);  // 6 / 0.05 = 120, + zp
  EXPECT_EQ(c.min, -10);
  EXPECT_EQ(c.max, 110);
  EXPECT_EQ(Relu6Clamp(0.01f, 0).max, 127);  // 600 saturates
  EXPECT_EQ(QuantizeToInt8(-1000.0, 1.0f, 0), -128);
  EXPECT_EQ(QuantizeToInt8(2.5, 1.0f, 0), 3);  // round half away from zero
}

}  // namespace
}  // namespace npu::compiler
