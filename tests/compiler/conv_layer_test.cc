// CheckLayer's rules and the layer's derived sizes.
#include "compiler/layer/conv_layer.h"

#include <gtest/gtest.h>

namespace npu::compiler {
namespace {

ConvLayer Valid() {
  ConvLayer l;
  l.name = "c1";
  l.in_h = 6, l.in_w = 5, l.in_c = 2, l.out_c = 3;
  l.kernel_h = l.kernel_w = 3;
  l.pad_top = l.pad_left = l.pad_bottom = l.pad_right = 1;
  l.weights.assign(3 * 3 * 3 * 2, 1);
  l.bias.assign(3, 0);
  l.multiplier.assign(3, 1 << 30);
  l.shift.assign(3, 31);
  return l;
}

void ExpectError(const ConvLayer& l, ErrorKind kind, const std::string& text) {
  const Status s = CheckLayer(l);
  ASSERT_FALSE(s.ok()) << text;
  EXPECT_EQ(s.kind(), kind) << s.message();
  EXPECT_NE(s.message().find("layer 'c1'"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(text), std::string::npos) << s.message();
}

TEST(ConvLayer, OutputSize) {
  ConvLayer l = Valid();
  EXPECT_TRUE(CheckLayer(l).ok());
  EXPECT_EQ(l.OutH(), 6u);
  EXPECT_EQ(l.OutW(), 5u);
  l.stride_h = 2, l.dilation_w = 2;
  EXPECT_EQ(l.OutH(), 3u);  // (6 + 2 - 3) / 2 + 1
  EXPECT_EQ(l.OutW(), 3u);  // (5 + 2 - 5) / 1 + 1
  EXPECT_EQ(l.Macs(), 3u * 3 * 3 * 18);
}

TEST(ConvLayer, RejectsZeroDimensions) {
  ConvLayer l = Valid();
  l.in_c = 0;
  ExpectError(l, ErrorKind::kInvalidArgument, "in_c = 0");
  l = Valid();
  l.stride_w = 0;
  ExpectError(l, ErrorKind::kInvalidArgument, "stride_w = 0");
}

TEST(ConvLayer, RejectsWhatCannotBeDecomposed) {
  ConvLayer l = Valid();
  l.kernel_h = 16;  // larger than CONV's field: the tiler cuts it into kernel blocks
  l.in_h = 20;
  l.weights.assign(3 * 16 * 3 * 2, 0);
  EXPECT_TRUE(CheckLayer(l).ok());
  l.stride_w = 5000;
  ExpectError(l, ErrorKind::kUnimplemented, "stride_w = 5000");
  l = Valid();
  l.in_c = 20000;
  l.weights.assign(3 * 9 * 20000, 0);
  ExpectError(l, ErrorKind::kUnimplemented, "accumulator could overflow");
}

TEST(ConvLayer, RejectsKernelLargerThanPaddedInput) {
  ConvLayer l = Valid();
  l.in_h = 1, l.pad_top = l.pad_bottom = 0;
  ExpectError(l, ErrorKind::kInvalidArgument, "larger than the padded input");
}

TEST(ConvLayer, AcceptsPaddingThatOutputsOnlyPaddingWithinLimits) {
  ConvLayer l = Valid();
  l.pad_bottom = 3;  // the last output row sees only padding: its value is the bias alone
  EXPECT_TRUE(CheckLayer(l).ok());
  l.pad_bottom = 5000;
  ExpectError(l, ErrorKind::kUnimplemented, "pad_bottom = 5000");
}

TEST(ConvLayer, RejectsMissizedTensors) {
  ConvLayer l = Valid();
  l.weights.pop_back();
  ExpectError(l, ErrorKind::kInvalidArgument, "weights has 53 values, expected");
  l = Valid();
  l.shift.push_back(31);
  ExpectError(l, ErrorKind::kInvalidArgument, "shift has 4 values");
}

TEST(ConvLayer, RejectsBadQuantisation) {
  ConvLayer l = Valid();
  l.shift[1] = 63;
  ExpectError(l, ErrorKind::kInvalidArgument, "shift[1] = 63");
  l = Valid();
  l.multiplier[2] = -5;
  ExpectError(l, ErrorKind::kInvalidArgument, "multiplier[2] = -5");
  l = Valid();
  l.input_zero_point = 128;
  ExpectError(l, ErrorKind::kInvalidArgument, "input_zero_point = 128");
  l = Valid();
  l.clamp_min = 10, l.clamp_max = 0;
  ExpectError(l, ErrorKind::kInvalidArgument, "clamp_min = 10 is above clamp_max = 0");
  l = Valid();
  l.output_scale = 0;
  ExpectError(l, ErrorKind::kInvalidArgument, "output_scale = 0");
}

TEST(ConvLayer, FullyConnectedIsOneByOne) {
  ConvLayer fc = MakeFullyConnected("fc", 4, 2, std::vector<int8_t>(8, 1), {0, 0});
  fc.multiplier.assign(2, 1 << 30);
  fc.shift.assign(2, 31);
  EXPECT_TRUE(CheckLayer(fc).ok());
  EXPECT_EQ(fc.OutH(), 1u);
  EXPECT_EQ(fc.OutW(), 1u);
  EXPECT_STREQ(fc.OpName(), "fully_connected");
  EXPECT_EQ(fc.Macs(), 8u);
}

}  // namespace
}  // namespace npu::compiler
