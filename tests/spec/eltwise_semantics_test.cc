// What ELTWISE, LUT and ACT's table compute, against hand-computed values: every op and
// broadcast mode, rounding of negative values, saturation, clamps, the table's end entries, and
// every fault.
#include <gtest/gtest.h>

#include <numeric>

#include "hw/spec/arith.h"
#include "hw/spec/semantics.h"

namespace npu::spec {
namespace {

using Bytes = std::vector<int8_t>;

EltwiseArgs Eltwise(EltwiseOp op, uint32_t count, int32_t a_multiplier, int32_t b_multiplier,
                    uint32_t shift) {
  EltwiseArgs e;
  e.op = uint32_t(op);
  e.count = count;
  e.a_multiplier = a_multiplier;
  e.b_multiplier = b_multiplier;
  e.shift = shift;
  return e;
}

Bytes Apply(const EltwiseArgs& e, const Bytes& a, const Bytes& b) {
  EXPECT_EQ(CheckEltwise(e), "");
  EXPECT_EQ(b.size(), EltwiseBBytes(e));
  Bytes out;
  ComputeEltwise(e, a, b, out);
  return out;
}

TEST(Eltwise, AddRoundsNegativeHalvesTowardsPositiveInfinity) {
  // a + b with shift 1 and multipliers 1: (A + B + 1) >> 1 = round((A + B) / 2).
  EltwiseArgs e = Eltwise(EltwiseOp::kAdd, 5, 1, 1, 1);
  // -3/2 = -1.5 -> -1; -1/2 = -0.5 -> 0; 3/2 = 1.5 -> 2; -5/2 = -2.5 -> -2; -6/2 = -3.
  EXPECT_EQ(Apply(e, {-1, 0, 1, -2, -3}, {-2, -1, 2, -3, -3}), (Bytes{-1, 0, 2, -2, -3}));
  // Multiplier 3, shift 2: -5 * 3 / 4 = -3.75 -> -4; -2 * 3 / 4 = -1.5 -> -1.
  e = Eltwise(EltwiseOp::kAdd, 2, 3, 0, 2);
  EXPECT_EQ(Apply(e, {-5, -2}, {9, 9}), (Bytes{-4, -1}));
}

TEST(Eltwise, NegativeBMultiplierSubtracts) {
  // (a - 10) * 0.5 - (b + 4) * 0.25 + out_zp 1, shift 8.
  EltwiseArgs e = Eltwise(EltwiseOp::kAdd, 3, 128, -64, 8);
  e.a_zero_point = 10, e.b_zero_point = -4, e.out_zero_point = 1;
  // 20*0.5 - 4*0.25 = 9 -> 10; 0 - 8*0.25 = -2 -> -1; -30*0.5 - 0 = -15 -> -14.
  EXPECT_EQ(Apply(e, {30, 10, -20}, {0, 4, -4}), (Bytes{10, -1, -14}));
}

TEST(Eltwise, MulScalesTheProductAndSaturates) {
  // A*B * 2^30 / 2^31 = A*B / 2: 3*5/2 = 7.5 -> 8; -3*1/2 = -1.5 -> -1; -3*3/2 = -4.5 -> -4.
  EltwiseArgs e = Eltwise(EltwiseOp::kMul, 4, 1 << 30, 0, 31);
  e.a_zero_point = 1;  // A = a - 1
  EXPECT_EQ(Apply(e, {4, -2, -2, -128}, {5, 1, 3, -128}), (Bytes{8, -1, -4, 127}));
  // The largest product: (-128 - 127) * (-128 - 127) = 65025 (fits int32), * 1.0 -> 127;
  // the most negative: -255 * 255 -> -128.
  e = Eltwise(EltwiseOp::kMul, 2, 1 << 30, 0, 30);
  e.a_zero_point = 127, e.b_zero_point = 127;
  EXPECT_EQ(Apply(e, {-128, -128}, {-128, 127}), (Bytes{127, 0}));
  e.b_zero_point = -128;
  EXPECT_EQ(Apply(e, {-128, -128}, {127, -128}), (Bytes{-128, 0}));
}

TEST(Eltwise, MaxAndMinCompareTheScaledOperands) {
  // max/min(A * 2, B * 1) >> 1 with rounding: A = 3, B = 5 -> max(6, 5) = 6 -> 3; min 5 -> 3 (2.5);
  // A = -3, B = -5: max(-6, -5) = -5 -> -2 (-2.5); min -6 -> -3.
  const Bytes a = {3, -3}, b = {5, -5};
  EXPECT_EQ(Apply(Eltwise(EltwiseOp::kMax, 2, 2, 1, 1), a, b), (Bytes{3, -2}));
  EXPECT_EQ(Apply(Eltwise(EltwiseOp::kMin, 2, 2, 1, 1), a, b), (Bytes{3, -3}));
  // Zero points apply before the comparison: ReLU-like max(a - 3, 0) with b = zp.
  EltwiseArgs relu = Eltwise(EltwiseOp::kMax, 3, 1 << 20, 1 << 20, 20);
  relu.a_zero_point = 3, relu.b_zero_point = 7, relu.out_zero_point = -1;
  relu.broadcast = uint32_t(Broadcast::kScalar);
  EXPECT_EQ(Apply(relu, {10, 3, -50}, {7}), (Bytes{6, -1, -1}));
}

TEST(Eltwise, EveryBroadcastMode) {
  // a: 2 pixels x 3 channels, b scaled by 1 and added (shift 1, multipliers 2: exact).
  const Bytes a = {0, 10, 20, 30, 40, 50};
  EltwiseArgs e = Eltwise(EltwiseOp::kAdd, 6, 2, 2, 1);
  e.channels = 3;
  e.broadcast = uint32_t(Broadcast::kNone);
  EXPECT_EQ(Apply(e, a, {1, 2, 3, 4, 5, 6}), (Bytes{1, 12, 23, 34, 45, 56}));
  e.broadcast = uint32_t(Broadcast::kChannel);
  EXPECT_EQ(Apply(e, a, {1, 2, 3}), (Bytes{1, 12, 23, 31, 42, 53}));
  e.broadcast = uint32_t(Broadcast::kPixel);
  EXPECT_EQ(Apply(e, a, {-1, -2}), (Bytes{-1, 9, 19, 28, 38, 48}));
  e.broadcast = uint32_t(Broadcast::kScalar);
  EXPECT_EQ(Apply(e, a, {100}), (Bytes{100, 110, 120, 127, 127, 127}));
}

TEST(Eltwise, ClampsToTheFieldsAndToInt8) {
  EltwiseArgs e = Eltwise(EltwiseOp::kAdd, 4, 2, 0, 1);  // y = a
  e.b_zero_point = 0;
  e.clamp_min = -5, e.clamp_max = 6;
  EXPECT_EQ(Apply(e, {-128, -5, 6, 127}, {0, 0, 0, 0}), (Bytes{-5, -5, 6, 6}));
  // A wide multiplier saturates to int8 whatever the clamp fields say.
  e = Eltwise(EltwiseOp::kAdd, 2, INT32_MAX, 0, 1);
  EXPECT_EQ(Apply(e, {1, -1}, {0, 0}), (Bytes{127, -128}));
}

TEST(Eltwise, BBytesPerBroadcast) {
  EltwiseArgs e;
  e.count = 12;
  e.channels = 4;
  const std::pair<Broadcast, uint64_t> cases[] = {{Broadcast::kNone, 12},
                                                  {Broadcast::kChannel, 4},
                                                  {Broadcast::kPixel, 3},
                                                  {Broadcast::kScalar, 1}};
  for (const auto& [mode, bytes] : cases) {
    e.broadcast = uint32_t(mode);
    EXPECT_EQ(EltwiseBBytes(e), bytes) << int(mode);
  }
}

TEST(Eltwise, Faults) {
  const EltwiseArgs ok = Eltwise(EltwiseOp::kAdd, 6, 1, 1, 1);
  EXPECT_EQ(CheckEltwise(ok), "");
  auto expect = [](EltwiseArgs e, const std::string& needle) {
    const std::string problem = CheckEltwise(e);
    EXPECT_NE(problem.find(needle), std::string::npos) << "'" << problem << "' lacks " << needle;
  };
  EltwiseArgs e = ok;
  e.count = 0;
  expect(e, "empty");
  e = ok, e.shift = 0;
  expect(e, "shift 0");
  e = ok, e.shift = 63;
  expect(e, "shift 63");
  for (Broadcast mode : {Broadcast::kChannel, Broadcast::kPixel}) {
    e = ok, e.broadcast = uint32_t(mode), e.channels = 0;
    expect(e, "channels 0");
    e.channels = 4;  // 6 is not a multiple of 4
    expect(e, "count 6 is not a whole number of pixels of 4 channels");
    e.channels = 3;
    EXPECT_EQ(CheckEltwise(e), "");
  }
  e = ok, e.broadcast = uint32_t(Broadcast::kScalar), e.channels = 0;  // channels unused
  EXPECT_EQ(CheckEltwise(e), "");
  e = ok, e.op = uint32_t(EltwiseOp::kMul);
  expect(e, "mul with b_multiplier 1");
  e.b_multiplier = 0;
  EXPECT_EQ(CheckEltwise(e), "");
}

// The identity table shifted by one: entry k holds k - 127, i.e. input x gives x + 1 (saturated
// at the top: entry 255 holds 127).
Bytes PlusOneTable() {
  Bytes t(kLutEntries);
  for (int k = 0; k < int(kLutEntries); ++k) t[k] = int8_t(std::min(k - 127, 127));
  return t;
}

TEST(Lut, IndexesByInputPlus128) {
  LutArgs l;
  l.count = 5;
  Bytes table = PlusOneTable();
  table[0] = 55;  // input -128
  Bytes out;
  ComputeLut(l, Bytes{-128, -1, 0, 126, 127}, table, out);
  EXPECT_EQ(out, (Bytes{55, 0, 1, 127, 127}));
  EXPECT_EQ(CheckLut(l), "");
  l.count = 0;
  EXPECT_EQ(CheckLut(l), "empty lut");
}

TEST(Lut, BypassCopiesWithoutATable) {
  LutArgs l;
  l.count = 4, l.bypass = true;
  Bytes out;
  ComputeLut(l, Bytes{-128, -1, 0, 127}, {}, out);
  EXPECT_EQ(out, (Bytes{-128, -1, 0, 127}));
  EXPECT_EQ(LutTableBytes(l), 0u);
  EXPECT_EQ(CheckLut(l), "");
  l.fp16_out = true;
  EXPECT_EQ(CheckLut(l), "bypass with fp16_out");
}

// One group of a 2-group shuffle of 6 channels over 3 pixels of a 10-channel tensor: channels
// 3..5 of each input pixel (stride 10) land 2 bytes apart from out + 1 (pixel stride 8).
TEST(Lut, PixelsSpanTheirStrides) {
  LutArgs l;
  l.count = 9, l.channels = 3, l.in_pixel_stride = 10, l.out_pixel_stride = 8;
  l.out_elem_stride = 2;
  EXPECT_EQ(CheckLut(l), "");
  EXPECT_EQ(LutPixels(l), 3u);
  EXPECT_EQ(LutInputSpan(l), 2u * 10 + 3);
  EXPECT_EQ(LutOutputSpan(l), 2u * 8 + 2 * 2 + 1);
  EXPECT_EQ(LutOutputBytes(l), 9u);
}

TEST(Lut, PixelFieldsAreChecked) {
  auto problem = [](auto edit) {
    LutArgs l;
    l.count = 8, l.channels = 4, l.in_pixel_stride = 4, l.out_pixel_stride = 4;
    l.out_elem_stride = 1;
    edit(l);
    return CheckLut(l);
  };
  EXPECT_EQ(problem([](LutArgs&) {}), "");
  EXPECT_EQ(problem([](LutArgs& l) { l.count = 6; }), "count 6 is not a multiple of channels 4");
  EXPECT_EQ(problem([](LutArgs& l) { l.fp16_out = true; }), "channels with fp16_out");
  EXPECT_EQ(problem([](LutArgs& l) { l.out_elem_stride = 0; }), "channels with out_elem_stride 0");
  EXPECT_EQ(problem([](LutArgs& l) { l.in_pixel_stride = 3; }),
            "pixel strides 3 in, 4 out below a pixel's 4 bytes in and 4 out");
  EXPECT_EQ(problem([](LutArgs& l) { l.out_elem_stride = 2; }),
            "pixel strides 4 in, 4 out below a pixel's 4 bytes in and 7 out");
  EXPECT_EQ(problem([](LutArgs& l) { l.count = 4, l.in_pixel_stride = 0; }), "");  // one pixel
  EXPECT_EQ(problem([](LutArgs& l) { l.channels = 0; }),
            "pixel or element strides without channels");
}

TEST(Act, TableMapsTheClampedResult) {
  ActArgs a;
  a.pixels = 1, a.channels = 4, a.out_pixel_stride = 4;
  a.out_zero_point = 2, a.clamp_min = -100;
  std::vector<uint8_t> params(4 * kActParamBytes);
  for (uint32_t c = 0; c < 4; ++c) WriteActParams(params, c, {0, 1 << 30, 30});  // x 1.0
  const std::vector<int32_t> acc = {-1000, -3, 125, 1000};  // -> -100 (clamp), -1, 127, 127
  Bytes table(kLutEntries);
  std::iota(table.begin(), table.end(), int8_t(-128));  // identity
  table[LutIndex(-100)] = 9, table[LutIndex(-1)] = -9, table[LutIndex(127)] = -128;
  Bytes out;
  ASSERT_EQ(ComputeAct(a, acc, params, table, out), regs::ErrorCode::kNone);
  EXPECT_EQ(out, (Bytes{-100, -1, 127, 127}));  // use_table off: the table is not read
  a.use_table = true;
  ASSERT_EQ(ComputeAct(a, acc, params, table, out), regs::ErrorCode::kNone);
  EXPECT_EQ(out, (Bytes{9, -9, -128, -128}));
}

}  // namespace
}  // namespace npu::spec
