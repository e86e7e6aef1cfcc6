// The requantisation rule of docs/integer-semantics.md on its edge cases.
#include "hw/spec/arith.h"

#include <gtest/gtest.h>

namespace npu::spec {
namespace {

constexpr int32_t kHalf = 1 << 30;  // multiplier 0.5 in Q31

TEST(ApplyScale, RoundsHalfTowardsPositiveInfinity) {
  // x * 0.5 with shift 31: 3 -> 1.5 -> 2; -3 -> -1.5 -> -1; 1 -> 0.5 -> 1; -1 -> -0.5 -> 0.
  EXPECT_EQ(ApplyScale(3, kHalf, 31), 2);
  EXPECT_EQ(ApplyScale(-3, kHalf, 31), -1);
  EXPECT_EQ(ApplyScale(1, kHalf, 31), 1);
  EXPECT_EQ(ApplyScale(-1, kHalf, 31), 0);
  EXPECT_EQ(ApplyScale(-5, kHalf, 31), -2);  // -2.5 -> -2
  EXPECT_EQ(ApplyScale(4, kHalf, 31), 2);
}

TEST(ApplyScale, ShiftRange) {
  EXPECT_EQ(ApplyScale(7, 1, 1), 4);  // 3.5 -> 4
  EXPECT_EQ(ApplyScale(INT32_MAX, INT32_MAX, 62), 1);
  EXPECT_EQ(ApplyScale(INT32_MIN, INT32_MAX, 31), INT32_MIN + 1);
}

TEST(Requantize, SaturatesBothEnds) {
  EXPECT_EQ(Requantize(100000, 0, kHalf, 31, 0, -128, 127), 127);
  EXPECT_EQ(Requantize(-100000, 0, kHalf, 31, 0, -128, 127), -128);
  EXPECT_EQ(Requantize(INT32_MAX, INT32_MAX, kHalf, 31, 0, -128, 127), 127);  // bias add saturates
  EXPECT_EQ(Requantize(INT32_MIN, INT32_MIN, kHalf, 31, 0, -128, 127), -128);
}

TEST(Requantize, ZeroPointAndClamp) {
  // (20 + 4) * 0.5 = 12, + zp 10 = 22.
  EXPECT_EQ(Requantize(20, 4, kHalf, 31, 10, -128, 127), 22);
  // ReLU as a clamp at the zero point.
  EXPECT_EQ(Requantize(-40, 0, kHalf, 31, 10, 10, 127), 10);
  // ReLU6 as an upper clamp.
  EXPECT_EQ(Requantize(400, 0, kHalf, 31, 10, 10, 70), 70);
  // Out-of-range clamp bounds are cut to int8.
  EXPECT_EQ(Requantize(1000, 0, kHalf, 31, 0, -1000, 1000), 127);
}

}  // namespace
}  // namespace npu::spec
