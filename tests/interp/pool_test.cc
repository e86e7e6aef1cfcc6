// Pooling against hand-computed values, in both layouts: ceil_mode, count_include_pad, windows
// that run past the padding.
#include <gtest/gtest.h>

#include "tests/interp/op_runner.h"

namespace npu::compiler::interp::testing {
namespace {

std::vector<float> Iota(int64_t n, float start = 0) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + float(i);
  return v;
}

// Runs a single-channel pool in NCHW and in NHWC (identical data for C = 1) and checks both.
void ExpectPool(ir::OpKind kind, const ir::Attributes& attrs, int64_t h, int64_t w,
                const std::vector<float>& x, const std::vector<float>& want) {
  for (ir::Layout layout : {ir::Layout::kNCHW, ir::Layout::kNHWC}) {
    const ir::Shape shape =
        layout == ir::Layout::kNCHW ? ir::Shape{1, 1, h, w} : ir::Shape{1, h, w, 1};
    EXPECT_EQ(Floats(RunOp(kind, attrs, {In(shape, x, layout)})), want) << ir::LayoutName(layout);
  }
}

TEST(MaxPool, FloorAndCeilMode) {
  // 4x4 input 0..15, 3x3 window, stride 2: floor gives one window, ceil a partial second row and
  // column (windows starting at 2 still start inside the input).
  ExpectPool(ir::OpKind::kMaxPool, A({{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}}), 4, 4,
             Iota(16), {10});
  ExpectPool(ir::OpKind::kMaxPool,
             A({{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}}),
             4, 4, Iota(16), {10, 11, 14, 15});
}

TEST(MaxPool, PaddingNeverWins) {
  // All-negative input: the padding must not contribute zeros.
  ExpectPool(ir::OpKind::kMaxPool,
             A({{"kernel_shape", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}, {"strides", Ints{2, 2}}}),
             2, 2, {-1, -2, -3, -4}, {-1, -2, -3, -4});
}

TEST(AveragePool, CountIncludePad) {
  // 2x2 input, 2x2 window, stride 1, pad 1: corners see one element of four padded taps.
  const auto attrs = [](int64_t include) {
    return A(
        {{"kernel_shape", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}, {"count_include_pad", include}});
  };
  ExpectPool(ir::OpKind::kAveragePool, attrs(1), 2, 2, {1, 2, 3, 4},
             {0.25f, 0.75f, 0.5f, 1.0f, 2.5f, 1.5f, 0.75f, 1.75f, 1.0f});
  ExpectPool(ir::OpKind::kAveragePool, attrs(0), 2, 2, {1, 2, 3, 4},
             {1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4});
}

TEST(AveragePool, CeilModeWindowPastThePaddingCountsOnlyRealTaps) {
  // 3x3 input 1..9, 2x2 window, stride 2, ceil: the last window holds x[2][2] plus three taps
  // beyond the (zero) padding; PyTorch and ONNX divide by 1 there even with count_include_pad.
  ExpectPool(ir::OpKind::kAveragePool,
             A({{"kernel_shape", Ints{2, 2}},
                {"strides", Ints{2, 2}},
                {"ceil_mode", int64_t{1}},
                {"count_include_pad", int64_t{1}}}),
             3, 3, Iota(9, 1), {3, 4.5f, 7.5f, 9});
}

TEST(GlobalAveragePool, BothLayouts) {
  // Two channels of 2x2: means 2.5 and 25.
  const std::vector<float> nchw = {1, 2, 3, 4, 10, 20, 30, 40};
  const std::vector<float> nhwc = {1, 10, 2, 20, 3, 30, 4, 40};
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kGlobalAveragePool, {},
                         {In({1, 2, 2, 2}, nchw, ir::Layout::kNCHW)})),
            (std::vector<float>{2.5f, 25}));
  auto r = RunOp(ir::OpKind::kGlobalAveragePool, {}, {In({1, 2, 2, 2}, nhwc, ir::Layout::kNHWC)});
  EXPECT_EQ(Floats(r), (std::vector<float>{2.5f, 25}));
  EXPECT_EQ((*r)[0].shape, (ir::Shape{1, 1, 1, 2}));
}

TEST(Pool, WindowLargerThanInputIsAnError) {
  auto r =
      RunOp(ir::OpKind::kMaxPool, A({{"kernel_shape", Ints{5, 5}}}), {In({1, 1, 3, 3}, Iota(9))});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("max_pool"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace npu::compiler::interp::testing
