// The integer reference against cases computed by hand.
#include "compiler/reference/reference_conv.h"

#include <gtest/gtest.h>

namespace npu::compiler {
namespace {

// A layer with unit scale (multiplier 2^30, shift 30) and the given shape and weights.
ConvLayer Layer(uint32_t h, uint32_t w, uint32_t c, uint32_t n, uint32_t kh, uint32_t kw,
                std::vector<int8_t> weights) {
  ConvLayer l;
  l.name = "ref";
  l.in_h = h, l.in_w = w, l.in_c = c, l.out_c = n, l.kernel_h = kh, l.kernel_w = kw;
  l.weights = std::move(weights);
  l.bias.assign(n, 0);
  l.multiplier.assign(n, 1 << 30);
  l.shift.assign(n, 30);
  return l;
}

std::vector<int8_t> Reference(const ConvLayer& l, std::vector<int8_t> input) {
  StatusOr<std::vector<int8_t>> out = ReferenceConv(l, input);
  EXPECT_TRUE(out.ok()) << out.status().message();
  return out.ok() ? *out : std::vector<int8_t>{};
}

TEST(ReferenceConv, PaddingIsTheInputZeroPoint) {
  // Real inputs 1 2 / 3 4 stored with zero point 10; a 3x3 ones kernel with pad 1 sees the
  // whole input from every output, so each output is 10 (+ output zero point 3). Treating the
  // padding as a raw 0 instead of the zero point would subtract 10 per padded tap.
  ConvLayer l = Layer(2, 2, 1, 1, 3, 3, std::vector<int8_t>(9, 1));
  l.pad_top = l.pad_left = l.pad_bottom = l.pad_right = 1;
  l.input_zero_point = 10;
  l.output_zero_point = 3;
  EXPECT_EQ(Reference(l, {11, 12, 13, 14}), (std::vector<int8_t>{13, 13, 13, 13}));
}

TEST(ReferenceConv, Stride) {
  ConvLayer l = Layer(1, 4, 1, 1, 1, 2, {1, 10});
  l.stride_w = 2;
  EXPECT_EQ(Reference(l, {1, 2, 3, 4}), (std::vector<int8_t>{21, 43}));
}

TEST(ReferenceConv, Dilation) {
  ConvLayer l = Layer(1, 5, 1, 1, 1, 2, {1, 1});
  l.dilation_w = 2;
  EXPECT_EQ(Reference(l, {1, 2, 3, 4, 5}), (std::vector<int8_t>{4, 6, 8}));
}

TEST(ReferenceConv, ChannelsAndWeightLayout) {
  // 1x1 input with 2 channels (3, 5), weights [n][c] = [[1, 2], [-1, 4]], biases 1 and -2.
  ConvLayer l = Layer(1, 1, 2, 2, 1, 1, {1, 2, -1, 4});
  l.bias = {1, -2};
  EXPECT_EQ(Reference(l, {3, 5}), (std::vector<int8_t>{14, 15}));
}

TEST(ReferenceConv, KernelWindowLayout) {
  // 2x2 kernel over a 2x2 single-channel input: weights [kh][kw] multiply in[y][x].
  ConvLayer l = Layer(2, 2, 1, 1, 2, 2, {1, 2, 3, 4});
  EXPECT_EQ(Reference(l, {1, 10, 100, 0}), (std::vector<int8_t>{127}));  // 1 + 20 + 300 saturates
  EXPECT_EQ(Reference(l, {5, 1, 2, 3}), (std::vector<int8_t>{5 + 2 + 6 + 12}));
}

TEST(ReferenceConv, ReluAndRelu6Clamp) {
  ConvLayer l = Layer(1, 3, 1, 1, 1, 1, {1});
  l.output_zero_point = -5;
  l.clamp_min = -5, l.clamp_max = 7;  // ReLU6 for an output scale of 0.5: [zp, zp + 12]
  EXPECT_EQ(Reference(l, {-20, 3, 50}), (std::vector<int8_t>{-5, -2, 7}));
}

TEST(ReferenceConv, SaturatesToInt8) {
  ConvLayer l = Layer(1, 2, 1, 1, 1, 1, {127});
  EXPECT_EQ(Reference(l, {100, -100}), (std::vector<int8_t>{127, -128}));
}

TEST(ReferenceConv, RoundsHalfUp) {
  ConvLayer l = Layer(1, 4, 1, 1, 1, 1, {1});
  l.shift.assign(1, 31);  // scale 0.5
  EXPECT_EQ(Reference(l, {3, -3, 5, -5}), (std::vector<int8_t>{2, -1, 3, -2}));
}

TEST(ReferenceConv, RejectsWrongInputSizeAndBadLayer) {
  ConvLayer l = Layer(2, 2, 1, 1, 1, 1, {1});
  const auto short_input = ReferenceConv(l, std::vector<int8_t>(3));
  ASSERT_FALSE(short_input.ok());
  EXPECT_NE(short_input.status().message().find("expected 2x2x1 = 4"), std::string::npos);
  l.shift[0] = 0;
  EXPECT_FALSE(ReferenceConv(l, std::vector<int8_t>(4)).ok());
}

}  // namespace
}  // namespace npu::compiler
