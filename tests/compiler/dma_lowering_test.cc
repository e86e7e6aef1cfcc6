// DMA lowering: merging, splitting, and moving exactly the logical copy's bytes.
#include "compiler/schedule/dma_lowering.h"

#include <map>
#include <random>

#include <gtest/gtest.h>

namespace npu::compiler {
namespace {

// dram byte -> sram byte for every byte a copy moves.
std::map<uint64_t, uint64_t> Bytes(const StridedCopy& c) {
  std::map<uint64_t, uint64_t> moved;
  for (uint64_t i2 = 0; i2 < c.n2; ++i2) {
    for (uint64_t i1 = 0; i1 < c.n1; ++i1) {
      for (uint64_t b = 0; b < c.run_bytes; ++b) {
        moved[c.dram_offset + i2 * c.dram_stride2 + i1 * c.dram_stride1 + b] =
            c.sram_addr + i2 * c.sram_stride2 + i1 * c.sram_stride1 + b;
      }
    }
  }
  return moved;
}

std::map<uint64_t, uint64_t> Bytes(const std::vector<spec::DmaArgs>& ds) {
  std::map<uint64_t, uint64_t> moved;
  for (const spec::DmaArgs& d : ds) {
    EXPECT_GT(d.run_bytes, 0u);
    EXPECT_LE(d.run_bytes, kMaxRunBytes);
    EXPECT_LE(d.n1, kMaxCount);
    EXPECT_LE(d.n2, kMaxCount);
    for (auto [dram, sram] :
         Bytes(StridedCopy{d.dram_offset, d.sram_addr, d.run_bytes, d.n1, d.n2, d.dram_stride1,
                           d.dram_stride2, d.sram_stride1, d.sram_stride2})) {
      EXPECT_TRUE(moved.emplace(dram, sram).second) << "byte moved twice: " << dram;
    }
  }
  return moved;
}

TEST(DmaLowering, FullChannelsAndFullWidthMergeIntoOneRun) {
  const auto ds = LowerCopy(HwcBlockCopy(1000, 64, 4, 7, 16, 7, 16));
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].run_bytes, 4u * 7 * 16);
  EXPECT_EQ(ds[0].n1, 1u);
  EXPECT_EQ(ds[0].n2, 1u);
}

TEST(DmaLowering, FullChannelsPartialWidthIsOneRunPerRow) {
  const auto ds = LowerCopy(HwcBlockCopy(0, 0, 5, 3, 8, 10, 8));
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].run_bytes, 24u);
  EXPECT_EQ(ds[0].n1, 5u);
  EXPECT_EQ(ds[0].dram_stride1, 80u);
  EXPECT_EQ(ds[0].sram_stride1, 24u);
}

TEST(DmaLowering, PartialChannelsStayThreeDimensional) {
  const StridedCopy c = HwcBlockCopy(16, 0, 3, 4, 5, 9, 20);
  const auto ds = LowerCopy(c);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].run_bytes, 5u);
  EXPECT_EQ(ds[0].n1, 4u);
  EXPECT_EQ(ds[0].n2, 3u);
  EXPECT_EQ(Bytes(ds), Bytes(c));
}

TEST(DmaLowering, LongContiguousRunSplitsIntoEqualPieces) {
  const auto ds = LowerCopy(ContiguousCopy(64, 0, 512000));  // 8 x 64000
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].run_bytes, 64000u);
  EXPECT_EQ(ds[0].n1, 8u);
}

TEST(DmaLowering, LongRunWithoutAGoodDivisorGetsARemainder) {
  const StridedCopy c = ContiguousCopy(0, 0, 100001);
  const auto ds = LowerCopy(c);
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(Bytes(ds), Bytes(c));
}

TEST(DmaLowering, LongStridedRowsSplitRowByRow) {
  const StridedCopy c = HwcBlockCopy(0, 0, 2, 300, 256, 301, 256);  // rows of 76800 bytes
  EXPECT_EQ(Bytes(LowerCopy(c)), Bytes(c));
}

TEST(DmaLowering, EmptyCopyEmitsNothing) {
  EXPECT_TRUE(LowerCopy(ContiguousCopy(0, 0, 0)).empty());
}

TEST(DmaLowering, RandomBlocksMoveExactlyTheirBytes) {
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    const uint64_t tensor_c = 1 + rng() % 40, tensor_w = 1 + rng() % 30;
    const uint64_t channels = 1 + rng() % tensor_c, cols = 1 + rng() % tensor_w;
    const uint64_t rows = 1 + rng() % 6;
    const StridedCopy c =
        HwcBlockCopy(rng() % 1000, rng() % 1000, rows, cols, channels, tensor_w, tensor_c);
    ASSERT_EQ(Bytes(LowerCopy(c)), Bytes(c)) << i;
  }
}

}  // namespace
}  // namespace npu::compiler
