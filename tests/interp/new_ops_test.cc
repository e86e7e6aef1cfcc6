// The kernels added for torch's exports against hand-computed values: unary activations, Pow,
// Max/Min broadcasting, reductions (negative axes, keepdims), Slice (negative indices, clamping,
// negative steps), Split, Resize's modes, LayerNormalization, ConvTranspose, Expand,
// ConstantOfShape, Cast, Range, ChannelShuffle in both layouts, 1-D conv and pools.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/interp/op_runner.h"

namespace npu::compiler::interp::testing {
namespace {

std::vector<float> Unary(ir::OpKind kind, std::vector<float> x, const ir::Attributes& a = {}) {
  const int64_t n = static_cast<int64_t>(x.size());
  return Floats(RunOp(kind, a, {In({n}, std::move(x))}));
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6) << "element " << i;
}

TEST(Unary, ActivationsFollowOnnx) {
  ExpectNear(Unary(ir::OpKind::kSigmoid, {0, 2}), {0.5f, 1 / (1 + std::exp(-2.0f))});
  ExpectNear(Unary(ir::OpKind::kHardSigmoid, {-4, 0, 1, 4}), {0, 0.5f, 0.7f, 1});
  ExpectNear(Unary(ir::OpKind::kHardSigmoid, {1}, A({{"alpha", 0.5f}, {"beta", 0.0f}})), {0.5f});
  ExpectNear(Unary(ir::OpKind::kHardSwish, {-4, 0, 1, 4}), {0, 0, 1 * (1 / 6.0f + 0.5f), 4});
  ExpectNear(Unary(ir::OpKind::kLeakyRelu, {-2, 3}), {-0.02f, 3});
  ExpectNear(Unary(ir::OpKind::kElu, {-1, 3}), {std::exp(-1.0f) - 1, 3});
  ExpectNear(Unary(ir::OpKind::kSoftplus, {0, 30}), {std::log(2.0f), 30});
  ExpectNear(Unary(ir::OpKind::kErf, {0.5f}), {std::erf(0.5f)});
  ExpectNear(Unary(ir::OpKind::kSqrt, {4}), {2});
  ExpectNear(Unary(ir::OpKind::kReciprocal, {4}), {0.25f});
  ExpectNear(Unary(ir::OpKind::kNeg, {4}), {-4});
  ExpectNear(Unary(ir::OpKind::kAbs, {-4}), {4});
  ExpectNear(Unary(ir::OpKind::kTanh, {0}), {0});
  ExpectNear(Unary(ir::OpKind::kExp, {0}), {1});
  ExpectNear(Unary(ir::OpKind::kLog, {1}), {0});
}

TEST(Binary, PowAndVariadicMaxMinBroadcast) {
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kPow, {}, {In({2}, {3, -2}), Const(F32({}, {2}))})),
            (std::vector<float>{9, 4}));
  // Max of [2,1], [3] and a scalar: [2,3].
  EXPECT_EQ(
      Floats(RunOp(ir::OpKind::kMax, {}, {In({2, 1}, {0, 5}), In({3}, {1, 2, 3}), In({}, {2.5f})})),
      (std::vector<float>{2.5f, 2.5f, 3, 5, 5, 5}));
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kMin, {}, {In({2}, {1, 4}), In({2}, {3, 2})})),
            (std::vector<float>{1, 2}));
}

TEST(Reduce, AxesKeepdimsAndNegativeAxes) {
  const Operand x = In({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kReduceMean, A({{"axes", Ints{-1}}}), {x})),
            (std::vector<float>{2, 5}));
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kReduceSum, A({{"axes", Ints{0}}}), {x})),
            (std::vector<float>{5, 7, 9}));
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kReduceMax, {}, {x})), (std::vector<float>{6}));
  auto r = RunOp(ir::OpKind::kReduceMean, A({{"axes", Ints{1}}, {"keepdims", int64_t{0}}}), {x});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].shape, ir::Shape{2});
  EXPECT_FALSE(RunOp(ir::OpKind::kReduceSum, A({{"axes", Ints{2}}}), {x}).ok());
}

TEST(Slice, NegativeIndicesClampAndSteps) {
  const Operand x = In({6}, {0, 1, 2, 3, 4, 5});
  auto slice = [&](std::vector<int64_t> s, std::vector<int64_t> e, std::vector<int64_t> step) {
    const int64_t n = static_cast<int64_t>(s.size());
    return Floats(RunOp(
        ir::OpKind::kSlice, {},
        {x, Const(I64({n}, s)), Const(I64({n}, e)), Const(I64({n}, {0})), Const(I64({n}, step))}));
  };
  EXPECT_EQ(slice({-4}, {100}, {1}), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(slice({1}, {-1}, {2}), (std::vector<float>{1, 3}));
  EXPECT_EQ(slice({-1}, {-100}, {-2}), (std::vector<float>{5, 3, 1}));
  EXPECT_EQ(slice({4}, {2}, {1}), (std::vector<float>{}));
  // 2-D, axes default 0..n-1.
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kSlice, {},
                         {In({2, 3}, {0, 1, 2, 3, 4, 5}), Const(I64({2}, {1, 1})),
                          Const(I64({2}, {2, 3}))})),
            (std::vector<float>{4, 5}));
}

TEST(Split, SizesAndEqualParts) {
  const Operand x = In({2, 3}, {0, 1, 2, 3, 4, 5});
  auto r = RunOp(ir::OpKind::kSplit, A({{"axis", int64_t{1}}, {"split", Ints{1, 2}}}), {x}, 2);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[1].shape, (ir::Shape{2, 2}));
  const auto b = (*r)[1].values<float>();
  EXPECT_EQ(std::vector<float>(b.begin(), b.end()), (std::vector<float>{1, 2, 4, 5}));
  EXPECT_TRUE(RunOp(ir::OpKind::kSplit, {}, {x}, 2).ok());  // 2 rows into 2 parts
  EXPECT_FALSE(RunOp(ir::OpKind::kSplit, A({{"axis", int64_t{1}}}), {x}, 2).ok());  // 3 / 2
}

std::vector<float> Resize1D(std::vector<float> x, float scale, const ir::Attributes& a) {
  const int64_t n = static_cast<int64_t>(x.size());
  return Floats(
      RunOp(ir::OpKind::kResize, a,
            {In({1, n}, std::move(x)), Const(F32({0}, {})), Const(F32({2}, {1, scale}))}));
}

TEST(Resize, CoordinateAndNearestModes) {
  const std::vector<float> x = {0, 10, 20};
  // half_pixel linear x2: c = (i + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25, 1.75, 2.25.
  ExpectNear(Resize1D(x, 2, A({{"mode", std::string("linear")}})),
             {0, 2.5f, 7.5f, 12.5f, 17.5f, 20});
  // align_corners: c = i * 2 / 5.
  ExpectNear(Resize1D(x, 2,
                      A({{"mode", std::string("linear")},
                         {"coordinate_transformation_mode", std::string("align_corners")}})),
             {0, 4, 8, 12, 16, 20});
  // asymmetric + floor (torch's mode='nearest'): c = i / 2.
  ExpectNear(Resize1D(x, 2,
                      A({{"coordinate_transformation_mode", std::string("asymmetric")},
                         {"nearest_mode", std::string("floor")}})),
             {0, 0, 10, 10, 20, 20});
  // half_pixel + round_prefer_floor, x1.5: c = (i + 0.5) / 1.5 - 0.5 = -1/6, 0.5 (ties go
  // down), 7/6, 11/6, 2.5 (down), 19/6.
  ExpectNear(Resize1D({0, 10, 20, 30}, 1.5f, {}), {0, 0, 10, 20, 20, 30});
  const auto cubic = RunOp(ir::OpKind::kResize, A({{"mode", std::string("cubic")}}),
                           {In({1, 3}, x), Const(F32({0}, {})), Const(F32({2}, {1, 2}))});
  ASSERT_FALSE(cubic.ok());
  EXPECT_NE(cubic.status().message().find("nearest and linear"), std::string::npos);
}

TEST(Resize, SizesAndPytorchHalfPixel) {
  // 2 -> 1 with pytorch_half_pixel samples coordinate 0.
  auto r = RunOp(
      ir::OpKind::kResize,
      A({{"mode", std::string("linear")},
         {"coordinate_transformation_mode", std::string("pytorch_half_pixel")}}),
      {In({1, 2}, {4, 8}), Const(F32({0}, {})), Const(F32({0}, {})), Const(I64({2}, {1, 1}))});
  ExpectNear(Floats(r), {4});
}

TEST(LayerNorm, NormalisesTheLastAxis) {
  // Row [1, 3]: mean 2, var 1 -> [-1, 1] / sqrt(1 + eps), then * [2, 3] + [1, 1].
  auto r = RunOp(ir::OpKind::kLayerNormalization, A({{"epsilon", 0.0f}}),
                 {In({1, 2}, {1, 3}), Const(F32({2}, {2, 3})), Const(F32({2}, {1, 1}))});
  ExpectNear(Floats(r), {-1, 4});
}

TEST(ConvTranspose, StridePadOutputPaddingAndGroups) {
  // 1x1x2x2 input, 1x1x2x2 kernel of ones, stride 2: each input pixel fills its own 2x2 block.
  const Operand x = In({1, 1, 2, 2}, {1, 2, 3, 4});
  const Operand w = Const(F32({1, 1, 2, 2}, {1, 1, 1, 1}));
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kConvTranspose, A({{"strides", Ints{2, 2}}}), {x, w})),
            (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
  // Stride 1 overlaps and adds; pads crop 1 from each side -> the centre 1x1 = 1+2+3+4.
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kConvTranspose, A({{"pads", Ints{1, 1, 1, 1}}}), {x, w})),
            (std::vector<float>{10}));
  auto r = RunOp(ir::OpKind::kConvTranspose,
                 A({{"strides", Ints{2, 2}}, {"output_padding", Ints{1, 1}}}), {x, w});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].shape, (ir::Shape{1, 1, 5, 5}));
}

TEST(ShapeValues, ExpandConstantOfShapeCastRange) {
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kExpand, {}, {In({2, 1}, {1, 2}), Const(I64({2}, {2, 3}))})),
            (std::vector<float>{1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(
      Floats(RunOp(ir::OpKind::kConstantOfShape, A({{"value", 1.5f}}), {Const(I64({1}, {3}))})),
      (std::vector<float>{1.5f, 1.5f, 1.5f}));
  auto i = RunOp(ir::OpKind::kConstantOfShape, A({{"value", int64_t{7}}}), {Const(I64({1}, {2}))});
  ASSERT_TRUE(i.ok());
  EXPECT_EQ((*i)[0].dtype, ir::DType::kInt64);
  auto c = RunOp(ir::OpKind::kCast, A({{"to", int64_t{7}}}), {In({2}, {2.7f, -2.7f})});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ((*c)[0].values<int64_t>()[1], -2);
  EXPECT_FALSE(RunOp(ir::OpKind::kCast, A({{"to", int64_t{9}}}), {In({1}, {1})}).ok());
  auto r = RunOp(ir::OpKind::kRange, {},
                 {Const(I64({}, {1})), Const(I64({}, {8})), Const(I64({}, {3}))});
  ASSERT_TRUE(r.ok());
  const auto v = (*r)[0].values<int64_t>();
  EXPECT_EQ(std::vector<int64_t>(v.begin(), v.end()), (std::vector<int64_t>{1, 4, 7}));
}

TEST(ChannelShuffle, NchwAndNhwcAgree) {
  // C = 6, group 2: out channel j*2 + i = in channel i*3 + j -> order 0,3,1,4,2,5.
  std::vector<float> v(6 * 2);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  const HostTensor x = F32({1, 6, 1, 2}, v);
  const std::vector<float> nchw =
      Floats(RunOp(ir::OpKind::kChannelShuffle, A({{"group", int64_t{2}}}), {In(x)}));
  EXPECT_EQ(nchw, (std::vector<float>{0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11}));
  const std::vector<float> nhwc =
      Floats(RunOp(ir::OpKind::kChannelShuffle, A({{"group", int64_t{2}}}), {In(ToNHWC(x))}));
  EXPECT_EQ(nhwc, Floats(StatusOr<std::vector<HostTensor>>(
                      std::vector<HostTensor>{ToNHWC(F32({1, 6, 1, 2}, nchw))})));
  EXPECT_FALSE(RunOp(ir::OpKind::kChannelShuffle, A({{"group", int64_t{4}}}), {In(x)}).ok());
}

TEST(OneD, ConvAndPoolsRunAsTwoD) {
  // [1,1,4] * kernel [1,1,2] of ones, pad 1 on each side -> [1,3,5,7,4].
  const Operand x = In({1, 1, 4}, {1, 2, 3, 4});
  auto conv = RunOp(ir::OpKind::kConv, A({{"pads", Ints{1, 1}}, {"kernel_shape", Ints{2}}}),
                    {x, Const(F32({1, 1, 2}, {1, 1}))});
  ASSERT_TRUE(conv.ok()) << conv.status().message();
  EXPECT_EQ((*conv)[0].shape, (ir::Shape{1, 1, 5}));
  EXPECT_EQ(Floats(conv), (std::vector<float>{1, 3, 5, 7, 4}));
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kMaxPool, A({{"kernel_shape", Ints{2}}, {"strides", Ints{2}}}),
                         {x})),
            (std::vector<float>{2, 4}));
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kGlobalAveragePool, {}, {x})), (std::vector<float>{2.5f}));
}

}  // namespace
}  // namespace npu::compiler::interp::testing
