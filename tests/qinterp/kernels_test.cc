// The integer interpreter on small layers whose results were computed by hand (the accumulators
// are in the comments): padding with a non-zero input zero point, depthwise, FC, pools with
// rounding, residual add with different scales, the ReLU/ReLU6 clamps.
#include "compiler/qinterp/kernels.h"

#include <gtest/gtest.h>

#include "compiler/qinterp/qinterp.h"
#include "tests/qinterp/qgraph_builder.h"

namespace npu::compiler::qinterp {
namespace {

using ir::OpKind;
using qinterp_test::QGraphBuilder;
using qinterp_test::SetClamp;
using I8 = std::vector<int8_t>;

I8 RunOne(const ir::Graph& g, const std::vector<I8>& inputs) {
  StatusOr<std::vector<I8>> out = InterpretQuantized(g, inputs);
  EXPECT_TRUE(out.ok()) << out.status().message();
  return out.ok() ? (*out)[0] : I8{};
}

constexpr int32_t kHalf = 1 << 30, kHalfShift = 31;  // multiplier/shift for 0.5

TEST(QInterpKernels, ConvPadsWithZeroContributionUnderNonZeroInputZeroPoint) {
  // x [1,3,3,2] with z_x = 3, weights OHWI [2][3][3][2], pads 1, scale 0.5, z_y = -2.
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 3, 3, 2}, 0.1f, 3);
  ir::Tensor* w = b.Weights("w", {2, 3, 3, 2},
                            {1, 0, 0, 1, -1, 0, 2,  1,  0, 0, -2, 1, 1, 0, 0, -1, -1, 2,  // o = 0
                             0, 1, 1, 1, 0,  1, -1, -1, 3, 0, -1, 1, 0, 2, 1, 0,  0,  -3});
  ir::Tensor* y = b.Conv("conv", x, w, b.Bias("b", {10, -7}), {1, 3, 3, 2}, 0.2f, -2, 1,
                         {1, 1, 1, 1}, kHalf, kHalfShift);
  const ir::Graph g = b.Finish({y});
  const I8 in = {5, -1, 1, 4, 4, 0, 2, 2, 7, -3, 0, 1, 3, 9, 3, 3, 6, -8};
  // acc (o0, o1) per pixel: (-10, 26) (-1, 0) (3, -11) (-22, -14) (-22, 52) (8, -5) (-5, -8)
  // (-15, -25) (2, -2); y = round_half_up((acc + b) / 2) - 2: ties 19/2 -> 10, 9/2 -> 5,
  // -7/2 -> -3.
  EXPECT_EQ(RunOne(g, {in}),
            (I8{-2, 8, 3, -5, 5, -11, -8, -12, -8, 21, 7, -8, 1, -9, -4, -18, 4, -6}));
}

TEST(QInterpKernels, DepthwiseConv) {
  // x [1,3,3,2] with z_x = -1, weights [2][3][3][1], pads 1, multiplier ~1/3, z_y = 5.
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 3, 3, 2}, 0.1f, -1);
  ir::Tensor* w =
      b.Weights("w", {2, 3, 3, 1}, {1, 2, 1, 0, -1, 0, 2, 0, -2, -1, 0, 1, 3, 1, 0, 0, 1, -1});
  ir::Tensor* y = b.Conv("dw", x, w, b.Bias("b", {3, -4}), {1, 3, 3, 2}, 0.3f, 5, 2, {1, 1, 1, 1},
                         1431655765, 32);
  const ir::Graph g = b.Finish({y});
  const I8 in = {4, -2, 0, 1, 3, 3, -5, 2, 1, 1, 2, -1, 0, 0, 7, -4, 1, 2};
  // acc (c0, c1): (-9, 0) (-15, 1) (0, 10) (-1, 9) (7, 10) (22, 7) (-7, 3) (-5, -3) (6, -8).
  EXPECT_EQ(RunOne(g, {in}), (I8{3, 4, 1, 4, 6, 7, 6, 7, 8, 7, 13, 6, 4, 5, 4, 3, 8, 1}));
}

TEST(QInterpKernels, GroupedConvReadsItsGroupsChannels) {
  // 1x1, 4 input channels in 2 groups, one output channel per group: (1 + 2, 3 - 4).
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 1, 1, 4}, 0.1f, 0);
  ir::Tensor* y = b.Conv("conv", x, b.Weights("w", {2, 1, 1, 2}, {1, 1, 1, -1}),
                         b.Bias("b", {0, 0}), {1, 1, 1, 2}, 0.1f, 0, 2, {0, 0, 0, 0}, kHalf, 30);
  const ir::Graph g = b.Finish({y});
  EXPECT_EQ(RunOne(g, {{1, 2, 3, 4}}), (I8{3, -1}));
}

TEST(QInterpKernels, DepthwiseKernelEqualsTheGeneralGroupedKernel) {
  // Random-ish 5x6x3 input, 3x3 stride 2 window with uneven padding and dilation 2.
  std::vector<int8_t> x(5 * 6 * 3), w(3 * 9);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int8_t>((i * 37 + 11) % 256 - 128);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>((i * 53 + 7) % 255 - 127);
  QConvAttrs a;
  a.window = {.kh = 3,
              .kw = 3,
              .sh = 2,
              .sw = 2,
              .dh = 2,
              .dw = 2,
              .pad_t = 2,
              .pad_l = 1,
              .pad_b = 0,
              .pad_r = 2};
  a.group = 3;
  a.requant = {{1 << 30, 1 << 30, 1 << 30}, {36, 37, 38}, {-100, 100}};
  const std::vector<int32_t> bias = {5, -300, 1000};
  const QIn in{x, 5, 6, 3, -7};
  const int64_t oh = a.window.OutH(5), ow = a.window.OutW(6);
  I8 general(oh * ow * 3), depthwise(oh * ow * 3);
  ConvKernel(in, w, bias, a, {general, oh, ow, 3, 4});
  DepthwiseConvKernel(in, w, bias, a, {depthwise, oh, ow, 3, 4});
  EXPECT_EQ(general, depthwise);
}

TEST(QInterpKernels, FullyConnectedSaturatesAndClampsRelu) {
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 4}, 0.1f, -5);
  ir::Attributes a;
  a.Set("transB", int64_t{1});
  a.Set("activation", std::string("none"));
  a.Set("multiplier", std::vector<int64_t>(3, kHalf));
  a.Set("shift", std::vector<int64_t>(3, 33));  // 0.125
  SetClamp(a);
  ir::Attributes relu = a;
  SetClamp(relu, 0, 127);
  ir::Tensor* w = b.Weights("w", {3, 4}, {1, 2, 3, 4, -1, -1, -1, -1, 127, -127, 0, 5});
  ir::Tensor* bias = b.Bias("b", {100, -50, 0});
  ir::Tensor* y = b.Node(OpKind::kGemm, "fc", {x, w, bias}, {1, 3}, 0.1f, 0, a);
  ir::Tensor* r = b.Node(OpKind::kGemm, "fc_relu", {x, w, bias}, {1, 3}, 0.1f, 0, relu);
  const ir::Graph g = b.Finish({y, r});
  // acc = (-111, -9, 3195); (acc + b) / 8 = -1.375 -> -1, -7.375 -> -7, 399.4 -> 127.
  StatusOr<std::vector<I8>> out = InterpretQuantized(g, {{10, -20, 127, -128}});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0], (I8{-1, -7, 127}));
  EXPECT_EQ((*out)[1], (I8{0, 0, 127}));
}

TEST(QInterpKernels, Relu6ClampOnConv) {
  // 1x1 conv, weight 1, scale 1: y = x + bias, clamped to [z_y, z_y + 6 / 0.25 = 24 - 10].
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 1, 4, 1}, 0.25f, 0);
  ir::Tensor* y = b.Conv("conv", x, b.Weights("w", {1, 1, 1, 1}, {1}), b.Bias("b", {0}),
                         {1, 1, 4, 1}, 0.25f, -10, 1, {0, 0, 0, 0}, kHalf, 30);
  ir::Graph g = b.Finish({y});
  SetClamp(y->producer()->attrs(), -10, 14);
  EXPECT_EQ(RunOne(g, {{-50, 0, 20, 100}}), (I8{-10, -10, 10, 14}));
}

TEST(QInterpKernels, MaxPoolSkipsPaddingAndClamps) {
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 3, 3, 1}, 0.1f, 0);
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{2, 2});
  a.Set("strides", std::vector<int64_t>{2, 2});
  a.Set("pads", std::vector<int64_t>{0, 0, 1, 1});
  SetClamp(a);
  ir::Attributes clamped = a;
  SetClamp(clamped, -3, 127);
  ir::Tensor* y = b.Node(OpKind::kMaxPool, "pool", {x}, {1, 2, 2, 1}, 0.1f, 0, a);
  ir::Tensor* c = b.Node(OpKind::kMaxPool, "pool_c", {x}, {1, 2, 2, 1}, 0.1f, 0, clamped);
  const ir::Graph g = b.Finish({y, c});
  // All values negative: a padding tap counted as 0 would win.
  StatusOr<std::vector<I8>> out = InterpretQuantized(g, {{-5, -3, -7, -9, -2, -4, -6, -8, -1}});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0], (I8{-2, -4, -6, -1}));
  EXPECT_EQ((*out)[1], (I8{-2, -3, -3, -1}));
}

ir::Attributes AveragePoolAttrs(int64_t count_include_pad) {
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{2, 2});
  a.Set("strides", std::vector<int64_t>{1, 1});
  a.Set("pads", std::vector<int64_t>{0, 0, 0, 1});
  a.Set("count_include_pad", count_include_pad);
  a.Set("multiplier", int64_t{kHalf});  // 2.0 = 2^30 * 2^-29
  a.Set("shift", int64_t{29});
  SetClamp(a);
  return a;
}

TEST(QInterpKernels, AveragePoolRoundsTheMeanHalfUp) {
  // x - z_x = [[1, 4, -5], [0, 5, 1]]; windows 2x2, the last one half in the right padding.
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 2, 3, 1}, 0.1f, 1);
  ir::Tensor* y0 =
      b.Node(OpKind::kAveragePool, "avg", {x}, {1, 1, 3, 1}, 0.05f, -3, AveragePoolAttrs(0));
  ir::Tensor* y1 =
      b.Node(OpKind::kAveragePool, "avg_cip", {x}, {1, 1, 3, 1}, 0.05f, -3, AveragePoolAttrs(1));
  const ir::Graph g = b.Finish({y0, y1});
  StatusOr<std::vector<I8>> out = InterpretQuantized(g, {{2, 5, -4, 1, 6, 2}});
  ASSERT_TRUE(out.ok()) << out.status().message();
  // Sums 10, 5, -4; y = round(2 * sum / count) - 3, one rounding (spec::RescaledMean).
  // count_include_pad=0: 2 * 10/4 = 5, 2 * 5/4 = 2.5 -> 3, 2 * -4/2 = -4.
  // count_include_pad=1: the last is 2 * -4/4 = -2.
  EXPECT_EQ((*out)[0], (I8{2, 0, -7}));
  EXPECT_EQ((*out)[1], (I8{2, 0, -5}));
}

TEST(QInterpKernels, GlobalAveragePool) {
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 2, 2, 2}, 0.1f, 0);
  ir::Attributes a;
  a.Set("multiplier", int64_t{kHalf});  // 1.0
  a.Set("shift", int64_t{30});
  SetClamp(a);
  ir::Tensor* y = b.Node(OpKind::kGlobalAveragePool, "gap", {x}, {1, 1, 1, 2}, 0.1f, 0, a);
  const ir::Graph g = b.Finish({y});
  // Channel sums 11 and -6 over 4 taps: 2.75 -> 3, -1.5 -> -1 (halves towards +infinity).
  EXPECT_EQ(RunOne(g, {{1, -1, 2, -2, 3, -2, 5, -1}}), (I8{3, -1}));
}

TEST(QInterpKernels, AddRescalesInputsWithDifferentScales) {
  // s_a = 0.5 (z 1), s_b = 0.25 (z -2), s_y = 0.5 (z 0): Ma = 1.0 * 2^14, Mb = 0.5 * 2^14.
  QGraphBuilder b;
  ir::Tensor* a = b.Input("a", {1, 5}, 0.5f, 1);
  ir::Tensor* bb = b.Input("b", {1, 5}, 0.25f, -2);
  ir::Attributes attrs;
  attrs.Set("a_multiplier", int64_t{16384});
  attrs.Set("b_multiplier", int64_t{8192});
  attrs.Set("shift", int64_t{14});
  SetClamp(attrs);
  ir::Attributes relu = attrs;
  relu.Set("activation", std::string("relu"));
  SetClamp(relu, 0, 127);
  ir::Tensor* y = b.Node(OpKind::kAdd, "add", {a, bb}, {1, 5}, 0.5f, 0, attrs);
  ir::Tensor* r = b.Node(OpKind::kFusedAdd, "add_relu", {a, bb}, {1, 5}, 0.5f, 0, relu);
  const ir::Graph g = b.Finish({y, r});
  // da = (2, 0, 99, -129, 0), db = (1, 3, 129, -126, -1): da + db / 2 = 2.5 -> 3, 1.5 -> 2,
  // 163.5 -> 127 (saturates), -192 -> -128 (saturates), -0.5 -> 0 (half towards +infinity).
  StatusOr<std::vector<I8>> out =
      InterpretQuantized(g, {{3, 1, 100, -128, 1}, {-1, 1, 127, -128, -3}});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0], (I8{3, 2, 127, -128, 0}));
  EXPECT_EQ((*out)[1], (I8{3, 2, 127, 0, 0}));
}

TEST(QInterpKernels, ViewsKeepBytesAndObserveSeesEveryNode) {
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 1, 2, 2}, 0.1f, 0);
  ir::Attributes a;
  a.Set("axis", int64_t{1});
  ir::Tensor* f = b.Node(OpKind::kFlatten, "flat", {x}, {1, 4}, 0.1f, 0, a);
  ir::Tensor* shape = b.graph().AddConstant<int64_t>("shape", {2}, {1, 4});
  ir::Tensor* r = b.Node(OpKind::kReshape, "reshape", {f, shape}, {1, 4}, 0.1f, 0, {});
  const ir::Graph g = b.Finish({r});
  std::vector<std::string> seen;
  QInterpretOptions options;
  options.observe = [&](const ir::Tensor& t, std::span<const int8_t>) { seen.push_back(t.name()); };
  StatusOr<std::vector<I8>> out = InterpretQuantized(g, {{1, -2, 3, -4}}, options);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0], (I8{1, -2, 3, -4}));
  EXPECT_EQ(seen, (std::vector<std::string>{"flat", "reshape"}));
}

}  // namespace
}  // namespace npu::compiler::qinterp
