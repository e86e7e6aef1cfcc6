// Convolution kernels against hand-computed values and against a naive loop, in both layouts.
#include <gtest/gtest.h>

#include <random>

#include "tests/interp/op_runner.h"

namespace npu::compiler::interp::testing {
namespace {

std::vector<float> Iota(int64_t n, float start = 0) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = start + float(i);
  return v;
}

TEST(Conv, StridedPaddedByHand) {
  // 3x3 input 1..9, 3x3 ones kernel, pad 1, stride 2: each output sums a 2x2 corner block.
  const auto y =
      Floats(RunOp(ir::OpKind::kConv, A({{"pads", Ints{1, 1, 1, 1}}, {"strides", Ints{2, 2}}}),
                   {In({1, 1, 3, 3}, Iota(9, 1)), In({1, 1, 3, 3}, std::vector<float>(9, 1.0f))}));
  EXPECT_EQ(y, (std::vector<float>{12, 16, 24, 28}));
}

TEST(Conv, DilatedByHand) {
  // 5x5 input 0..24, 2x2 ones kernel with dilation 2: y[r][c] = x[r][c] + x[r][c+2] + x[r+2][c]
  // + x[r+2][c+2] = 24 + 4 * (5r + c).
  const auto y =
      Floats(RunOp(ir::OpKind::kConv, A({{"dilations", Ints{2, 2}}}),
                   {In({1, 1, 5, 5}, Iota(25)), In({1, 1, 2, 2}, std::vector<float>(4, 1.0f))}));
  ASSERT_EQ(y.size(), 9u);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(y[r * 3 + c], 24 + 4 * (5 * r + c)) << r << "," << c;
}

TEST(Conv, GroupsWithBiasByHand) {
  // Two groups of two channels: out0 = 1*1 + 10*2 + 0.5, out1 = 100*3 + 1000*4 - 0.5.
  for (ir::Layout layout : {ir::Layout::kNCHW, ir::Layout::kNHWC}) {
    const ir::Shape shape =
        layout == ir::Layout::kNCHW ? ir::Shape{1, 4, 1, 1} : ir::Shape{1, 1, 1, 4};
    const auto y = Floats(RunOp(ir::OpKind::kConv, A({{"group", int64_t{2}}}),
                                {In(shape, {1, 2, 3, 4}, layout),
                                 In({2, 2, 1, 1}, {1, 10, 100, 1000}), In({2}, {0.5f, -0.5f})}));
    EXPECT_EQ(y, (std::vector<float>{21.5f, 4299.5f})) << ir::LayoutName(layout);
  }
}

struct ConvCase {
  int64_t n, c, h, w, out_c, k, stride, pad, dilation, group;
};
void PrintTo(const ConvCase& p, std::ostream* os) {
  *os << "n" << p.n << "c" << p.c << "h" << p.h << "w" << p.w << "o" << p.out_c << "k" << p.k << "s"
      << p.stride << "p" << p.pad << "d" << p.dilation << "g" << p.group;
}

// Direct 7-loop convolution, NCHW, OIHW: the obviously right reference.
std::vector<float> NaiveConv(const ConvCase& p, const std::vector<float>& x,
                             const std::vector<float>& w, const std::vector<float>& b, int64_t oh,
                             int64_t ow) {
  const int64_t cg = p.c / p.group, og = p.out_c / p.group;
  std::vector<float> y(p.n * p.out_c * oh * ow);
  for (int64_t n = 0; n < p.n; ++n)
    for (int64_t o = 0; o < p.out_c; ++o)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double acc = b[o];
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t kh = 0; kh < p.k; ++kh)
              for (int64_t kw = 0; kw < p.k; ++kw) {
                const int64_t ih = i * p.stride - p.pad + kh * p.dilation;
                const int64_t iw = j * p.stride - p.pad + kw * p.dilation;
                if (ih < 0 || ih >= p.h || iw < 0 || iw >= p.w) continue;
                const int64_t c = (o / og) * cg + ci;
                acc += double(x[((n * p.c + c) * p.h + ih) * p.w + iw]) *
                       w[((o * cg + ci) * p.k + kh) * p.k + kw];
              }
          y[((n * p.out_c + o) * oh + i) * ow + j] = float(acc);
        }
  return y;
}

class ConvMatchesNaive : public ::testing::TestWithParam<ConvCase> {};

TEST_P(ConvMatchesNaive, InBothLayouts) {
  const ConvCase p = GetParam();
  std::mt19937 rng(42);
  auto draw = [&](int64_t n) {
    std::vector<float> v(n);
    for (float& f : v) f = float(rng() % 2001) / 1000.0f - 1.0f;
    return v;
  };
  const auto x = draw(p.n * p.c * p.h * p.w), w = draw(p.out_c * p.c / p.group * p.k * p.k),
             b = draw(p.out_c);
  const int64_t ext = (p.k - 1) * p.dilation + 1;
  const int64_t oh = (p.h + 2 * p.pad - ext) / p.stride + 1,
                ow = (p.w + 2 * p.pad - ext) / p.stride + 1;
  const HostTensor want =
      F32({p.n, p.out_c, oh, ow}, NaiveConv(p, x, w, b, oh, ow), ir::Layout::kNCHW);
  const ir::Attributes attrs = A({{"pads", Ints{p.pad, p.pad, p.pad, p.pad}},
                                  {"strides", Ints{p.stride, p.stride}},
                                  {"dilations", Ints{p.dilation, p.dilation}},
                                  {"group", p.group}});
  const HostTensor xt = F32({p.n, p.c, p.h, p.w}, x, ir::Layout::kNCHW);
  const Operand wt = In({p.out_c, p.c / p.group, p.k, p.k}, w), bt = In({p.out_c}, b);
  auto nchw = RunOp(ir::OpKind::kConv, attrs, {In(xt), wt, bt});
  auto nhwc = RunOp(ir::OpKind::kConv, attrs, {In(ToNHWC(xt)), wt, bt});
  ASSERT_TRUE(nchw.ok()) << nchw.status().message();
  ASSERT_TRUE(nhwc.ok()) << nhwc.status().message();
  EXPECT_LT(MaxRelativeError((*nchw)[0], want), 1e-5);
  EXPECT_LT(MaxRelativeError((*nhwc)[0], ToNHWC(want)), 1e-5);
  EXPECT_EQ((*nhwc)[0].layout, ir::Layout::kNHWC);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ConvMatchesNaive,
    ::testing::Values(ConvCase{1, 3, 9, 9, 8, 3, 1, 1, 1, 1},    // plain 3x3
                      ConvCase{2, 4, 8, 7, 6, 3, 2, 1, 1, 2},    // batch, stride, groups
                      ConvCase{1, 6, 10, 10, 6, 3, 1, 2, 2, 6},  // depthwise, dilated
                      ConvCase{1, 8, 9, 9, 8, 3, 2, 1, 1, 8},    // depthwise, strided
                      ConvCase{1, 8, 6, 6, 16, 1, 1, 0, 1, 1},   // pointwise (no im2col)
                      ConvCase{1, 8, 6, 6, 16, 1, 2, 0, 1, 1},   // strided 1x1 (downsample)
                      ConvCase{1, 4, 6, 6, 8, 1, 1, 0, 1, 2},    // grouped pointwise
                      ConvCase{1, 3, 11, 11, 4, 7, 2, 3, 1, 1},  // resnet's stem shape
                      ConvCase{1, 4, 5, 5, 8, 5, 1, 0, 1, 4}));  // depth multiplier 2

TEST(Conv, RejectsChannelMismatchNamingTheNode) {
  auto r =
      RunOp(ir::OpKind::kConv, {},
            {In({1, 3, 4, 4}, std::vector<float>(48)), In({2, 2, 1, 1}, std::vector<float>(4))});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("node 'node' (conv)"), std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace npu::compiler::interp::testing
