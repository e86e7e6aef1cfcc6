// The MAC array's operand stream (hw/spec/operand_stream.h): the words each fold reads, worked
// out by hand; the fold formula it bounds (ConvComputeCycles); and how the banks share a stream
// with other accesses (SramBankTimer::BookStream).
#include "tests/common/hand_config.h"
#include "hw/spec/operand_stream.h"

#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/sram_bank_timer.h"
#include "hw/spec/timing_model.h"
#include "tests/spec/square_conv.h"

namespace npu::spec {
namespace {

// An 8 x 8 array on 2 banks of 4 bytes: small enough to count words by hand.
NpuConfig Small(Dataflow dataflow = WEIGHT_STATIONARY) {
  NpuConfig c = ::npu::testing::HandConfig();
  c.mutable_mac()->set_rows(8);
  c.mutable_mac()->set_cols(8);
  c.mutable_mac()->set_dataflow(dataflow);
  c.mutable_sram()->set_banks(2);
  c.mutable_sram()->set_bank_width_bytes(4);
  return c;
}

constexpr auto Conv = testing::SquareConv;

std::vector<FoldReads> Reads(const std::vector<FoldClass>& classes) {
  std::vector<FoldReads> reads;
  for (const FoldClass& f : classes) reads.push_back(f.reads);
  return reads;
}

TEST(OperandStream, WeightStationaryVectorsBreakAtKernelRows) {
  // 3x3 over 3 channels: K = 27 in chunks of 8; a kernel row is 9 contiguous bytes. N = 8: one
  // column chunk. M = 4 pixels.
  const ConvArgs conv = Conv(3, 3, 8, 2);
  const std::vector<FoldClass> classes = ConvFoldClasses(Small(), conv);
  ASSERT_EQ(classes.size(), 3u);
  // Chunk [0, 8): one segment, 2 words. [8, 16): 1 byte of row 0 (1 word) + 7 of row 1 (2).
  // [16, 24): 2 bytes (1) + 6 (2), read alike: one class of 2. [24, 27): 3 bytes (1). Block: 8
  // columns x ceil(r / 4) words.
  const std::vector<FoldReads> expected = {{8 * 8 + 4 * 8, 8 * 2 + 4 * 2},
                                           {8 * 8 + 4 * 8, 8 * 2 + 4 * 3},
                                           {3 * 8 + 4 * 3, 8 * 1 + 4 * 1}};
  EXPECT_EQ(Reads(classes), expected);
  EXPECT_EQ(classes[1].count, 2u);
  EXPECT_TRUE(classes.back().last);
  for (size_t i = 0; i + 1 < classes.size(); ++i) EXPECT_FALSE(classes[i].last);
}

TEST(OperandStream, DilationBreaksAtEveryTap) {
  ConvArgs conv = Conv(3, 3, 8, 2);
  conv.dilation_w = 2;
  conv.in_w += 2;
  // Chunk [0, 8): taps of 3 bytes at 0, 3, 6: 3 + 3 + 2 bytes, a word each.
  EXPECT_EQ(ConvFoldClasses(Small(), conv)[0].reads.words, 8u * 2 + 4 * 3);
}

TEST(OperandStream, ColumnChunksRepeatTheInput) {
  // 1x1, K = 8, N = 20: column chunks of 8, 8 and 4; each streams all 9 pixels again.
  const ConvArgs conv = Conv(1, 8, 20, 3);
  const std::vector<FoldClass> classes = ConvFoldClasses(Small(), conv);
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes[0].count, 2u);
  EXPECT_EQ(classes[0].reads, (FoldReads{8 * 8 + 9 * 8, 8 * 2 + 9 * 2}));
  EXPECT_EQ(classes[1].count, 1u);
  EXPECT_EQ(classes[1].reads, (FoldReads{8 * 4 + 9 * 8, 4 * 2 + 9 * 2}));
  EXPECT_EQ(ConvStreamReads(Small(), conv).words, 2u * 34 + 26);
}

TEST(OperandStream, WeightsKnReadRowsOfTheBlock) {
  ConvArgs conv = Conv(1, 8, 8, 3);
  conv.weights_kn = true;  // [K][N]: the block is 8 runs of 8 bytes either way
  conv.out_c = 6;          // ... 8 runs of 6 bytes: 2 words each
  EXPECT_EQ(ConvFoldClasses(Small(), conv)[0].reads.words, 8u * 2 + 9 * 2);
}

TEST(OperandStream, DepthwiseVectorsReadEachTapsChannels) {
  ConvArgs conv = Conv(3, 8, 8, 2);
  conv.depthwise = true;  // K = 9 taps: chunks of 8 and 1
  const std::vector<FoldClass> classes = ConvFoldClasses(Small(), conv);
  ASSERT_EQ(classes.size(), 2u);
  // Block 8 taps x 8 channels ([channel][tap]: 8 runs of 8 bytes); per pixel 8 taps of 8
  // channels (2 words each).
  EXPECT_EQ(classes[0].reads, (FoldReads{64 + 4 * 64, 8 * 2 + 4 * 8 * 2}));
  EXPECT_EQ(classes[1].reads, (FoldReads{8 + 4 * 8, 8 * 1 + 4 * 1 * 2}));
}

// Groups (CONV's groups): each column takes its group's values, so the 4 groups of 2 input
// channels share the 8 columns and K is a group's 9 taps x 2 channels = 18, chunks 8, 8, 2.
TEST(OperandStream, GroupedVectorsReadTheTapsOfTheTilesGroups) {
  ConvArgs conv = Conv(3, 8, 8, 2);
  conv.groups = 4;
  EXPECT_EQ(ConvGemm(conv).k, 18u);
  EXPECT_EQ(ConvFolds(Small(), conv), 3u);  // 9 ungrouped
  const std::vector<FoldClass> classes = ConvFoldClasses(Small(), conv);
  ASSERT_EQ(classes.size(), 2u);
  // Chunks [0, 8) and [8, 16): the 8 x 8 block (8 runs of 8 bytes, 2 words each); per pixel 8
  // values for each of 4 groups, touching 4 taps whose 8 channels are 2 words.
  EXPECT_EQ(classes[0].count, 2u);
  EXPECT_EQ(classes[0].reads, (FoldReads{64 + 4 * 32, 8 * 2 + 4 * 4 * 2}));
  // [16, 18): 2 weights a column (1 word each), per pixel 2 values a group from one tap.
  EXPECT_EQ(classes[1].reads, (FoldReads{16 + 4 * 8, 8 * 1 + 4 * 1 * 2}));
}

// Depthwise row groups (mac.row_groups): a 3x3 kernel on 32 rows fits 3 copies; each
// step takes 3 adjacent output pixels of a row and reads the union of their windows once.
TEST(OperandStream, RowGroupsStreamPixelGroupsAndReadTheirWindowsOnce) {
  NpuConfig config = ::npu::testing::HandConfig();  // 32 x 32 weight-stationary, 16 banks of 16 bytes
  config.mutable_mac()->set_row_groups(3);
  ConvArgs c;
  c.in_h = c.in_w = 16;
  c.in_c = c.out_c = 48;
  c.pad_top = c.pad_left = 1;
  c.kernel_h = c.kernel_w = 3;
  c.out_h = c.out_w = 16;
  c.depthwise = true;
  EXPECT_EQ(RowGroups(config, c), 3u);
  // 16 rows of ceil(16 / 3) = 6 steps.
  EXPECT_EQ(ConvStream(config, c), 96u);
  // Per output row: 5 groups of 3 pixels reading 5 input columns, 1 of 1 reading 3; 3 kernel
  // rows each: 84 pixel vectors a row, 1344 a fold. 32 channels: 2 words a vector, plus the 9 x 32
  // weight block's 32 words; 16 channels: 1 word, 16.
  const std::vector<FoldClass> classes = ConvFoldClasses(config, c);
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes[0].reads, (FoldReads{9 * 32 + 1344 * 32, 32 + 1344 * 2}));
  EXPECT_EQ(classes[1].reads, (FoldReads{9 * 16 + 1344 * 16, 16 + 1344 * 1}));
  // Fill and drain 94, the first fold bank-bound (2720 words: 170 cycles), the last its stream.
  EXPECT_EQ(ConvArrayCycles(config, c), 94u + 2 * 96);
  EXPECT_EQ(ConvComputeCycles(config, c), 94u + 170 + 96);
  // One group: 640 cycles (tests/hw/vector_ops_test.cc). The MACs are the same.
  config.mutable_mac()->set_row_groups(1);
  EXPECT_EQ(ConvComputeCycles(config, c), 94u + 290 + 256);
}

// A convolution whose whole reduction is short (a 1x1 over 16 channels: K = 16 of 32 rows) holds
// two copies of its weights: two pixels a step, each pixel's vector read as before.
TEST(OperandStream, RowGroupsOfAShortReductionStreamHalfThePixelsAndReadTheSame) {
  NpuConfig config = ::npu::testing::HandConfig();
  const ConvArgs c = Conv(1, 16, 64, 15);  // M = 225 pixels, N = 64: two column folds
  const std::vector<FoldClass> one = ConvFoldClasses(config, c);
  const uint64_t alone = ConvArrayCycles(config, c);
  config.mutable_mac()->set_row_groups(3);
  EXPECT_EQ(RowGroups(config, c), 2u);     // min(3, 32 / 16)
  EXPECT_EQ(ConvStream(config, c), 113u);  // ceil(225 / 2)
  EXPECT_EQ(ConvStreamReads(config, c), ConvStreamReads(::npu::testing::HandConfig(), c));
  EXPECT_EQ(ConvFoldClasses(config, c).size(), one.size());
  // (folds - 1) x max(T, R) + T + 2R + C - 2: 225 -> 113 for each of the 2 folds.
  EXPECT_EQ(alone, 225u + 225 + 94);
  EXPECT_EQ(ConvArrayCycles(config, c), 113u + 113 + 94);
  EXPECT_EQ(RowGroups(config, Conv(3, 3, 64, 15)), 1u);   // K = 27: one copy in 32 rows
  EXPECT_EQ(RowGroups(config, Conv(1, 10, 64, 15)), 3u);  // K = 10: three
  config.mutable_mac()->set_dataflow(OUTPUT_STATIONARY);
  EXPECT_EQ(RowGroups(config, c), 1u);
}

// A reduction spanning folds whose last K-chunk is short (K = 40 on 32 rows: 32, then 8) holds
// that chunk's weights three times: its folds take three pixels a step; the full chunk's one.
TEST(OperandStream, RowGroupsServeAShortLastKChunk) {
  NpuConfig config = ::npu::testing::HandConfig();
  const ConvArgs c = Conv(1, 40, 64, 15);  // M = 225, N = 64: 2 K-chunks x 2 column chunks
  const uint64_t alone = ConvArrayCycles(config, c);
  const FoldReads reads = ConvStreamReads(config, c);
  config.mutable_mac()->set_row_groups(3);
  EXPECT_EQ(RowGroups(config, c), 1u);  // the first chunk fills the rows
  EXPECT_EQ(LastChunkRows(config, c), 8u);
  EXPECT_EQ(FoldRowGroups(config, c, 8), 3u);
  EXPECT_EQ(ConvStream(config, c), 225u);
  EXPECT_EQ(LastFoldStream(config, c), 75u);  // ceil(225 / 3)
  EXPECT_EQ(ConvStreamReads(config, c), reads);  // each pixel's 8 values read as before
  uint64_t folds = 0, streamed = 0;
  for (const FoldClass& f : ConvFoldClasses(config, c)) {
    folds += f.count;
    streamed += f.count * f.stream;
  }
  EXPECT_EQ(folds, 4u);
  EXPECT_EQ(streamed, 2u * 225 + 2 * 75);
  // Fill and drain 94; per column chunk a slot of 225, then one of 75 (the last: its T).
  EXPECT_EQ(alone, 94u + 4 * 225);
  EXPECT_EQ(ConvArrayCycles(config, c), 94u + 225 + 75 + 225 + 75);
  // A last chunk of more than half the rows is not grouped (K = 56: 32, then 24).
  EXPECT_EQ(LastFoldStream(config, Conv(1, 56, 64, 15)), 225u);
  EXPECT_EQ(LastFoldStream(config, Conv(1, 48, 64, 15)), 113u);  // 32, then 16: two groups
  // A CONV continuing this one's chain waits out its last fold's slot: 7 x 7 pixels stream
  // ceil(49 / 3) = 17 steps in a slot of R = 32.
  const ConvArgs small = Conv(1, 40, 64, 7);
  EXPECT_EQ(ConvArrayCycles(config, small, &small), 15u + 49 + 32 + 49 + 17);
}

// Column groups (mac.col_groups = 2: injection points at columns 0 and 16): a fold of 16 columns
// or fewer holds its weights twice, side by side, and takes two pixels a step; with row groups
// on a short K-chunk too, the pixels a step multiply.
TEST(OperandStream, ColumnGroupsServeNarrowColumnChunks) {
  NpuConfig config = ::npu::testing::HandConfig();
  const ConvArgs c = Conv(1, 40, 40, 15);  // M = 225; K: 32, then 8; N: 32, then 8
  const FoldReads reads = ConvStreamReads(config, c);
  EXPECT_EQ(ConvArrayCycles(config, c), 94u + 4 * 225);
  config.mutable_mac()->set_col_groups(2);
  EXPECT_EQ(FoldColGroups(config, c, 32), 1u);
  EXPECT_EQ(FoldColGroups(config, c, 17), 1u);
  EXPECT_EQ(FoldColGroups(config, c, 16), 2u);
  EXPECT_EQ(LastChunkCols(config, c), 8u);
  EXPECT_EQ(ConvStream(config, c), 225u);
  EXPECT_EQ(LastFoldStream(config, c), 113u);  // ceil(225 / 2)
  EXPECT_EQ(ConvStreamReads(config, c), reads);  // each pixel's vector read once, as before
  EXPECT_EQ(ConvArrayCycles(config, c), 94u + 225 + 225 + 113 + 113);
  config.mutable_mac()->set_row_groups(3);  // the 8-row chunk in 3 row groups as well
  EXPECT_EQ(LastFoldStream(config, c), 38u);  // ceil(225 / 6)
  EXPECT_EQ(ConvArrayCycles(config, c), 94u + 225 + 75 + 113 + 38);
  // Four groups of 8 columns: a chunk of 9 to 16 columns starts a copy at every second point.
  config.mutable_mac()->set_col_groups(4);
  EXPECT_EQ(FoldColGroups(config, c, 8), 4u);
  EXPECT_EQ(FoldColGroups(config, c, 9), 2u);
  EXPECT_EQ(FoldColGroups(config, c, 16), 2u);
  EXPECT_EQ(FoldColGroups(config, c, 17), 1u);
  ConvArgs dw = c;  // depthwise folds are not column-grouped
  dw.depthwise = true;
  EXPECT_EQ(FoldColGroups(config, dw, 8), 1u);
  config.mutable_mac()->set_dataflow(OUTPUT_STATIONARY);
  EXPECT_EQ(FoldColGroups(config, c, 8), 1u);
}

TEST(OperandStream, RowGroupsAreLimitedByTheRowsAKernelLeaves) {
  NpuConfig config = ::npu::testing::HandConfig();
  config.mutable_mac()->set_row_groups(4);
  ConvArgs c = Conv(3, 32, 32, 16);
  c.depthwise = true;
  EXPECT_EQ(RowGroups(config, c), 3u);  // 32 / 9
  c.kernel_h = c.kernel_w = 5;
  EXPECT_EQ(RowGroups(config, c), 1u);  // 32 / 25
  c.weights_int4 = true;                // int4: 64 reduction rows
  EXPECT_EQ(RowGroups(config, c), 2u);
  c.weights_int4 = false, c.depthwise = false;
  EXPECT_EQ(RowGroups(config, c), 1u);  // not depthwise: K = 5 x 5 x 32 spans many folds
  c.depthwise = true;
  config.mutable_mac()->set_dataflow(OUTPUT_STATIONARY);
  EXPECT_EQ(RowGroups(config, c), 1u);  // rows hold pixels already
  // A stride of 2: the union of 3 windows is 2 * 2 + 3 = 7 columns.
  config.mutable_mac()->set_dataflow(WEIGHT_STATIONARY);
  c = Conv(3, 8, 8, 3);
  c.depthwise = true;
  c.stride_w = 2;
  c.out_w = 3;
  c.out_h = 1;
  EXPECT_EQ(ConvFoldClasses(config, c)[0].reads.words, 8u + 3 * 7 * 1);
}

TEST(OperandStream, OutputStationaryRowsReadWindowsColumnsReadWeights) {
  // 3x3 over 3 channels (K = 27), M = 9 pixels (rows 8 + 1), N = 10 (columns 8 + 2).
  const ConvArgs conv = Conv(3, 3, 10, 3);
  const std::vector<FoldClass> classes = ConvFoldClasses(Small(OUTPUT_STATIONARY), conv);
  ASSERT_EQ(classes.size(), 4u);
  // A window: 3 kernel rows of 9 bytes (3 words each); a column: 27 weights (7 words).
  EXPECT_EQ(classes[0].count, 1u);
  EXPECT_EQ(classes[0].reads, (FoldReads{8 * 27 + 8 * 27, 8 * 9 + 8 * 7}));
  EXPECT_EQ(classes[1].reads, (FoldReads{8 * 27 + 2 * 27, 8 * 9 + 2 * 7}));
  EXPECT_EQ(classes[2].reads, (FoldReads{1 * 27 + 8 * 27, 1 * 9 + 8 * 7}));
  EXPECT_EQ(classes[3].reads, (FoldReads{1 * 27 + 2 * 27, 1 * 9 + 2 * 7}));
  EXPECT_TRUE(classes[3].last);
  uint64_t folds = 0;
  for (const FoldClass& f : classes) folds += f.count;
  EXPECT_EQ(folds, ConvFolds(Small(OUTPUT_STATIONARY), conv));
}

TEST(OperandStream, FoldsLastAtLeastTheirReads) {
  // 1x1, K = 8, N = 8, M = 64: one fold, T = 64, reading 8 * 2 + 64 * 2 = 144 words; fill and
  // drain 2*8 + 8 - 2 = 22.
  NpuConfig c = Small();
  c.mutable_sram()->set_banks(4);  // 36 cycles of reads: under T, the array's own 64 + 22
  EXPECT_EQ(ConvArrayCycles(c, Conv(1, 8, 8, 8)), 86u);
  EXPECT_EQ(ConvComputeCycles(c, Conv(1, 8, 8, 8)), 86u);
  c.mutable_sram()->set_banks(1);  // 144 cycles of reads: the fold takes them
  EXPECT_EQ(ConvComputeCycles(c, Conv(1, 8, 8, 8)), 144u + 22);
  // K = 16 on 2 banks: two folds of 144 words each, 72 cycles, over slots of 64.
  c.mutable_sram()->set_banks(2);
  EXPECT_EQ(ConvArrayCycles(c, Conv(1, 16, 8, 8)), 64u + 64 + 22);
  EXPECT_EQ(ConvComputeCycles(c, Conv(1, 16, 8, 8)), 72u + 72 + 22);
}

TEST(SramBankStream, WaitsForItsBanksThenLeavesTheRest) {
  NpuConfig c = Small();
  c.mutable_sram()->set_banks(1);
  SramBankTimer timer(c);
  // A 4-word access holds the bank until 4; a stream asked for at 2 starts then.
  EXPECT_EQ(timer.Book(SramAccess{0, 16}, 0).finish, 4u);
  EXPECT_EQ(timer.BookStream(0, 5, 2, 10), 4u);
  // Stream: 5 words over [4, 14), floor(5 t / 10) of them in its first t cycles, so every other
  // cycle is free: 3 words asked for at 4 take the free cycles 4, 6 and 8, finishing at 9.
  EXPECT_EQ(timer.Book(SramAccess{0, 12}, 4).finish, 9u);
  // 8 words alongside a stream of 5 over [0, 10): 5 free cycles in it, 3 after it.
  SramBankTimer fresh(c);
  EXPECT_EQ(fresh.BookStream(0, 5, 0, 10), 0u);
  EXPECT_EQ(fresh.Book(SramAccess{0, 32}, 0).finish, 13u);
}

TEST(SramBankStream, AFullStreamHoldsItsBanksToTheEnd) {
  SramBankTimer timer(Small());
  // 2 banks, 20 words from bank 0: 10 each over 10 cycles.
  EXPECT_EQ(timer.BookStream(0, 20, 0, 10), 0u);
  EXPECT_EQ(timer.Book(SramAccess{4, 4}, 3).finish, 11u);  // bank 1, after the stream
  // A next stream starts once this one ended.
  EXPECT_EQ(timer.BookStream(0, 2, 5, 3), 11u);
}

}  // namespace
}  // namespace npu::spec

namespace npu::spec {
namespace {

// The documented rule, cycle by cycle: a stream of W words over D cycles from S holds
// floor(W t / D) words in its first t cycles; an access of n words made at `at` on a free bank
// takes the first n cycles the stream leaves.
uint64_t CountFreeCycles(uint64_t s, uint64_t d, uint64_t w, uint64_t at, uint64_t n) {
  const auto held = [&](uint64_t t) { return t <= s ? 0 : t >= s + d ? w : w * (t - s) / d; };
  uint64_t t = at;
  while (n > 0) {
    if (held(t + 1) == held(t)) --n;  // cycle t is free
    ++t;
  }
  return t;
}

TEST(SramBankStream, MatchesTheRuleCycleByCycle) {
  NpuConfig c = ::npu::testing::HandConfig();
  c.mutable_sram()->set_banks(1);
  // Streams that leave many, few and a single cycle free, accesses before, inside and across.
  for (const auto& [d, w] : std::vector<std::pair<uint64_t, uint64_t>>{
           {10, 5}, {1000, 999}, {997, 13}, {5000, 4990}, {64, 1}}) {
    for (uint64_t at : {0ull, 3ull, 50ull, 900ull}) {
      for (uint64_t n : {1ull, 2ull, 7ull, 100ull}) {
        SramBankTimer timer(c);
        ASSERT_EQ(timer.BookStream(0, w, 20, d), 20u);
        EXPECT_EQ(timer.Book(SramAccess{0, 16 * n}, at).finish, CountFreeCycles(20, d, w, at, n))
            << "stream " << w << "/" << d << ", " << n << " words at " << at;
      }
    }
  }
}

}  // namespace
}  // namespace npu::spec
