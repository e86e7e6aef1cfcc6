// mac.fold_pipelining: each PE design's fold formula and the accumulation chain, pinned down with
// hand-computed numbers (docs/timing-fidelity.md derives them; hw/rtl measures them).
#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/timing_model.h"

namespace npu::spec {
namespace {

NpuConfig Array(FoldPipelining pipelining, Dataflow dataflow = WEIGHT_STATIONARY) {
  NpuConfig c = DefaultConfig();
  c.mutable_mac()->set_rows(4);
  c.mutable_mac()->set_cols(8);
  c.mutable_mac()->set_dataflow(dataflow);
  c.mutable_mac()->set_fold_pipelining(pipelining);
  c.mutable_mac()->set_row_groups(1);  // every fold streams M (row groups: below)
  c.mutable_mac()->set_col_groups(1);
  return c;
}

// M = out_h*out_w, K = in_c (1x1), N = out_c.
ConvArgs Gemm(uint32_t m, uint32_t k, uint32_t n) {
  ConvArgs conv;
  conv.in_h = conv.out_h = 1;
  conv.in_w = conv.out_w = m;
  conv.in_c = k;
  conv.out_c = n;
  return conv;
}

TEST(FoldPipelining, DefaultIsDoubleBuffered) {
  EXPECT_EQ(DefaultConfig().mac().fold_pipelining(), DOUBLE_BUFFERED);
}

TEST(FoldPipelining, SlotPerDesign) {
  // R = 4, C = 8: fill + drain 2R + C - 2 = 14.
  EXPECT_EQ(FoldSlotCycles(Array(DOUBLE_BUFFERED), 3), 4u);  // max(T, R)
  EXPECT_EQ(FoldSlotCycles(Array(DOUBLE_BUFFERED), 30), 30u);
  EXPECT_EQ(FoldSlotCycles(Array(SINGLE_BUFFERED), 3), 7u);  // max(T, 2R - 1)
  EXPECT_EQ(FoldSlotCycles(Array(SINGLE_BUFFERED), 7), 7u);  // T = 2R - 1: no bubble
  EXPECT_EQ(FoldSlotCycles(Array(SINGLE_BUFFERED), 30), 30u);
  EXPECT_EQ(FoldSlotCycles(Array(NONE), 3), 3u + 14);  // T + 2R + C - 2
  EXPECT_EQ(FoldOverheadCycles(Array(DOUBLE_BUFFERED)), 14u);
  EXPECT_EQ(FoldOverheadCycles(Array(SINGLE_BUFFERED)), 14u);
  EXPECT_EQ(FoldOverheadCycles(Array(NONE)), 0u);
}

TEST(FoldPipelining, WeightStationaryConv) {
  // M = 30, K = 18, N = 10: ceil(18/4) * ceil(10/8) = 10 folds streaming 30.
  const ConvArgs conv = Gemm(30, 18, 10);
  EXPECT_EQ(ConvComputeCycles(Array(DOUBLE_BUFFERED), conv), 10u * 30 + 14);
  EXPECT_EQ(ConvComputeCycles(Array(SINGLE_BUFFERED), conv), 10u * 30 + 14);
  EXPECT_EQ(ConvComputeCycles(Array(NONE), conv), 10u * (30 + 14));
  // One output pixel (T = 1 < R): loading the stationary operand bounds every fold but the
  // last, which streams its one vector and drains.
  const ConvArgs fc = Gemm(1, 64, 16);  // 16 * 2 = 32 folds
  EXPECT_EQ(ConvComputeCycles(Array(DOUBLE_BUFFERED), fc), 31u * 4 + 1 + 14);
  EXPECT_EQ(ConvComputeCycles(Array(SINGLE_BUFFERED), fc), 31u * 7 + 1 + 14);
  EXPECT_EQ(ConvComputeCycles(Array(NONE), fc), 32u * 15);
}

TEST(FoldPipelining, EachFoldHasItsOwnSlot) {
  // Two row groups: K = 18 on 4 rows is 4 chunks of 4, then one of 2 that streams
  // ceil(30 / 2) = 15 in two groups. Per column chunk 4 folds of T = 30 and one of 15; the last
  // fold (of the second column chunk) streams its 15 and drains.
  const ConvArgs conv = Gemm(30, 18, 10);
  for (FoldPipelining p : {DOUBLE_BUFFERED, SINGLE_BUFFERED, NONE}) {
    NpuConfig c = Array(p);
    c.mutable_mac()->set_row_groups(2);
    EXPECT_EQ(LastFoldStream(c, conv), 15u);
    const uint64_t expected = p == NONE ? 8u * (30 + 14) + 2 * (15 + 14) : 8u * 30 + 15 + 15 + 14;
    EXPECT_EQ(ConvComputeCycles(c, conv), expected) << FoldPipelining_Name(p);
  }
  // A CONV chained after it waits out the rest of its last fold's slot, max(15, R) - 15 = 0;
  // after one of 3 pixels, whose last chunk streams 2 in a slot of 4 (7 single-buffered): 2 (5).
  NpuConfig c = Array(DOUBLE_BUFFERED);
  c.mutable_mac()->set_row_groups(2);
  const ConvArgs three = Gemm(3, 18, 10);
  EXPECT_EQ(ConvComputeCycles(c, conv, &conv), 8u * 30 + 15 + 15);
  EXPECT_EQ(ConvComputeCycles(c, conv, &three), 2u + 8 * 30 + 15 + 15);
  c.mutable_mac()->set_fold_pipelining(SINGLE_BUFFERED);
  EXPECT_EQ(ConvComputeCycles(c, conv, &three), 5u + 8 * 30 + 15 + 15);
}

TEST(FoldPipelining, OutputStationaryConv) {
  // Same GEMM: ceil(30/4) * ceil(10/8) = 16 folds streaming K = 18; K = 5 for the short one.
  const NpuConfig single = Array(SINGLE_BUFFERED, OUTPUT_STATIONARY);
  EXPECT_EQ(ConvComputeCycles(single, Gemm(30, 18, 10)), 16u * 18 + 14);
  EXPECT_EQ(ConvComputeCycles(single, Gemm(30, 5, 10)), 15u * 7 + 5 + 14);
  EXPECT_EQ(ConvComputeCycles(Array(NONE, OUTPUT_STATIONARY), Gemm(30, 5, 10)), 16u * 19);
  EXPECT_EQ(ConvComputeCycles(Array(DOUBLE_BUFFERED, OUTPUT_STATIONARY), Gemm(30, 5, 10)),
            16u * 5 + 14);
}

TEST(FoldPipelining, ChainedConvPaysNoFillOrDrain) {
  // It waits out the rest of the previous CONV's last slot instead.
  const ConvArgs conv = Gemm(30, 18, 10), short_stream = Gemm(2, 18, 10);
  EXPECT_EQ(ConvComputeCycles(Array(DOUBLE_BUFFERED), conv, &conv), 10u * 30);
  EXPECT_EQ(ConvComputeCycles(Array(SINGLE_BUFFERED), conv, &conv), 10u * 30);
  EXPECT_EQ(ConvComputeCycles(Array(DOUBLE_BUFFERED), conv, &short_stream), (4u - 2) + 10 * 30);
  EXPECT_EQ(ConvComputeCycles(Array(SINGLE_BUFFERED), conv, &short_stream), (7u - 2) + 10 * 30);
  EXPECT_EQ(ConvComputeCycles(Array(DOUBLE_BUFFERED), short_stream, &conv), 9u * 4 + 2);
}

TEST(FoldChain, AccumulatingConvIntoTheSameTileBackToBackContinues) {
  const NpuConfig c = Array(DOUBLE_BUFFERED);
  ConvArgs first = Gemm(30, 18, 10), next = first;
  next.accumulate = true;
  next.in_addr = 4096;  // other operands do not matter
  FoldChain chain;
  EXPECT_EQ(chain.Predecessor(c, next, 0), nullptr);  // nothing ran yet
  chain.Ended(first, 314);
  ASSERT_NE(chain.Predecessor(c, next, 314), nullptr);
  EXPECT_EQ(*chain.Predecessor(c, next, 314), first);
  EXPECT_EQ(chain.Predecessor(c, next, 315), nullptr);   // the array idled
  EXPECT_EQ(chain.Predecessor(c, first, 314), nullptr);  // does not accumulate
  ConvArgs other_tile = next;
  other_tile.acc_addr = 320;
  EXPECT_EQ(chain.Predecessor(c, other_tile, 314), nullptr);
  ConvArgs other_shape = next;
  other_shape.out_c = 8;
  EXPECT_EQ(chain.Predecessor(c, other_shape, 314), nullptr);
  EXPECT_NE(chain.Predecessor(Array(SINGLE_BUFFERED), next, 314), nullptr);
  EXPECT_EQ(chain.Predecessor(Array(NONE), next, 314), nullptr);  // every fold fills and drains
  const NpuConfig os = Array(DOUBLE_BUFFERED, OUTPUT_STATIONARY);
  EXPECT_NE(chain.Predecessor(os, next, 314), nullptr);
  ConvArgs shorter_k = next;
  shorter_k.in_c = 9;
  EXPECT_NE(chain.Predecessor(c, shorter_k, 314), nullptr);
  EXPECT_EQ(chain.Predecessor(os, shorter_k, 314), nullptr);  // its sums would overtake the drain
}

TEST(FoldPipelining, ConfigNamesTheField) {
  NpuConfig c = DefaultConfig();
  ASSERT_TRUE(ApplyOverride(c, "mac.fold_pipelining=SINGLE_BUFFERED").ok());
  EXPECT_EQ(c.mac().fold_pipelining(), SINGLE_BUFFERED);
  EXPECT_TRUE(Validate(c).ok());
  ASSERT_TRUE(ApplyOverride(c, "mac.fold_pipelining=NONE").ok());
  EXPECT_TRUE(Validate(c).ok());
  const Status bad = ApplyOverride(c, "mac.fold_pipelining=TRIPLE");
  EXPECT_NE(bad.message().find("DOUBLE_BUFFERED, SINGLE_BUFFERED, NONE"), std::string::npos)
      << bad.message();
  c.mutable_mac()->clear_fold_pipelining();
  const Status unset = Validate(c);
  EXPECT_NE(unset.message().find("mac.fold_pipelining"), std::string::npos) << unset.message();
}

}  // namespace
}  // namespace npu::spec
