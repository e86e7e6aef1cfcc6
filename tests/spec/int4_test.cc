// INT4 weights (hw/spec/int4.h, ConvArgs::weights_int4): the packing by hand, its round trip, a
// CONV on packed weights against the same CONV on the unpacked bytes, the weight block's size,
// the folds with mac.int4_weight_rate, and what the feeder reads.
#include "hw/spec/int4.h"

#include <gtest/gtest.h>

#include <random>

#include "hw/spec/config.h"
#include "hw/spec/isa.h"
#include "hw/spec/operand_stream.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"
#include "tests/spec/square_conv.h"

namespace npu::spec {
namespace {

TEST(Int4, PacksLowNibbleFirstAndStartsEachRowOnAByte) {
  // Two rows of 3: [1, -1, 7] [-8, 0, 5] -> row bytes 0xF1 0x07, 0x08 0x05.
  const std::vector<int8_t> values = {1, -1, 7, -8, 0, 5};
  EXPECT_EQ(PackInt4Rows(values, 3), (std::vector<uint8_t>{0xf1, 0x07, 0x08, 0x05}));
  const std::vector<uint8_t> packed = PackInt4Rows(values, 3);
  const std::vector<int8_t> as_int8(packed.begin(), packed.end());
  EXPECT_EQ(UnpackInt4Rows(as_int8, 2, 3), values);
}

TEST(Int4, EveryValueRoundTrips) {
  std::vector<int8_t> values;
  for (int v = kInt4Min; v <= kInt4Max; ++v) values.push_back(static_cast<int8_t>(v));
  const std::vector<uint8_t> packed = PackInt4Rows(values, values.size());
  EXPECT_EQ(packed.size(), 8u);
  EXPECT_EQ(UnpackInt4Rows(std::vector<int8_t>(packed.begin(), packed.end()), 1, values.size()),
            values);
}

// With an input zero point, so the sums' corrections are exercised.
ConvArgs Conv(uint32_t k, uint32_t in_c, uint32_t out_c, uint32_t out_hw) {
  ConvArgs c = testing::SquareConv(k, in_c, out_c, out_hw);
  c.in_zero_point = 3;
  return c;
}

// A CONV on int4 weights computes what the same CONV computes on the unpacked int8 weights.
void ExpectSameSums(ConvArgs c, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int8_t> input(ConvInputBytes(c)), values(ConvWeightBytes(c));
  for (int8_t& b : input) b = static_cast<int8_t>(rng());
  for (int8_t& w : values) w = static_cast<int8_t>(int(rng() % 16) - 8);
  std::vector<int32_t> want(ConvAccEntries(c)), got(ConvAccEntries(c));
  ComputeConv(c, input, values, want);
  c.weights_int4 = true;
  const std::vector<uint8_t> packed = PackInt4Rows(values, ConvWeightRowValues(c));
  ASSERT_EQ(packed.size(), ConvWeightBytes(c));
  ComputeConv(c, input, std::vector<int8_t>(packed.begin(), packed.end()), got);
  EXPECT_EQ(got, want);
}

TEST(Int4, ConvOnPackedWeightsEqualsConvOnTheirValues) {
  ExpectSameSums(Conv(3, 3, 5, 4), 1);  // K = 27: odd rows, a pad nibble per row
  ExpectSameSums(Conv(1, 16, 7, 3), 2);
  ConvArgs dw = Conv(3, 6, 6, 4);  // 9 taps per channel
  dw.depthwise = true;
  ExpectSameSums(dw, 3);
}

TEST(Int4, WeightBlockIsHalfTheBytesRoundedUpPerRow) {
  ConvArgs c = Conv(3, 3, 5, 4);  // 5 rows of 27
  c.weights_int4 = true;
  EXPECT_EQ(ConvWeightBytes(c), 5u * 14);
  c.weights_kn = true;
  c.kernel_h = c.kernel_w = 1;
  EXPECT_EQ(CheckConv(c), "weights_int4 with weights_kn");
}

TEST(Int4, RateTwoDoublesTheReductionAFoldCovers) {
  NpuConfig c = DefaultConfig();  // 32 x 32, int4_weight_rate 2
  c.mutable_mac()->set_rows(4);
  c.mutable_mac()->set_cols(8);
  ConvArgs conv = Conv(3, 2, 10, 5);  // K = 18, N = 10, M = 25
  EXPECT_EQ(ConvFolds(c, conv), 5u * 2);  // int8: ceil(18/4) x ceil(10/8)
  conv.weights_int4 = true;
  EXPECT_EQ(ConvFolds(c, conv), 3u * 2);  // ceil(18/8) x 2
  EXPECT_EQ(ConvStream(c, conv), 25u);
  c.mutable_mac()->set_int4_weight_rate(1);
  EXPECT_EQ(ConvFolds(c, conv), 10u);
  // Output-stationary streams K two at a time: ceil(18/2) = 9 steps.
  c.mutable_mac()->set_int4_weight_rate(2);
  c.mutable_mac()->set_dataflow(OUTPUT_STATIONARY);
  EXPECT_EQ(ConvFolds(c, conv), 7u * 2);
  EXPECT_EQ(ConvStream(c, conv), 9u);
}

TEST(Int4, TheFeederReadsPackedWeightRows) {
  // 8 x 8 on 2 banks of 4 bytes, rate 2: K-chunks of 16. 1x1 over 20 channels, 8 outputs, 2x2.
  NpuConfig c = DefaultConfig();
  c.mutable_mac()->set_rows(8);
  c.mutable_mac()->set_cols(8);
  c.mutable_sram()->set_banks(2);
  c.mutable_sram()->set_bank_width_bytes(4);
  ConvArgs conv = Conv(1, 20, 8, 2);
  conv.weights_int4 = true;
  const std::vector<FoldClass> classes = ConvFoldClasses(c, conv);
  ASSERT_EQ(classes.size(), 2u);
  // Chunk [0, 16): 8 rows x 8 bytes (2 words each) + 4 pixels x 16 bytes (4 words).
  EXPECT_EQ(classes[0].reads, (FoldReads{8 * 8 + 4 * 16, 8 * 2 + 4 * 4}));
  // Chunk [16, 20): 8 rows x 2 bytes (1 word) + 4 pixels x 4 bytes (1 word).
  EXPECT_EQ(classes[1].reads, (FoldReads{8 * 2 + 4 * 4, 8 * 1 + 4 * 1}));
}

TEST(Int4, RateOutsideOneOrTwoIsRefused) {
  NpuConfig c = DefaultConfig();
  c.mutable_mac()->set_int4_weight_rate(3);
  const Status s = Validate(c);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("mac.int4_weight_rate = 3"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace npu::spec
