// DMA lowering: merging, splitting, and moving exactly the logical copy's bytes.
#include "compiler/schedule/dma_lowering.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace npu::compiler {
namespace {

// dram byte -> sram byte for every byte a copy moves (byte b of a run sram_elem_stride apart in
// SRAM, docs/isa.md).
std::map<uint64_t, uint64_t> Bytes(const StridedCopy& c) {
  std::map<uint64_t, uint64_t> moved;
  const uint64_t step = c.sram_elem_stride > 1 ? c.sram_elem_stride : 1;
  for (uint64_t i2 = 0; i2 < c.n2; ++i2) {
    for (uint64_t i1 = 0; i1 < c.n1; ++i1) {
      for (uint64_t b = 0; b < c.run_bytes; ++b) {
        moved[c.dram_offset + i2 * c.dram_stride2 + i1 * c.dram_stride1 + b] =
            c.sram_addr + i2 * c.sram_stride2 + i1 * c.sram_stride1 + b * step;
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
                           d.dram_stride2, d.sram_stride1, d.sram_stride2, d.sram_elem_stride})) {
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

TEST(DmaLowering, ElementsOfAChannelSliceArePixelRuns) {
  // Channels [3, 7) of a tensor with 10 per pixel, at 1000: element 8 is pixel 2, channel 0.
  const TensorPlace slice{false, 1000, 10, 3};
  const StridedCopy pixels = ElementsCopy(slice, 4, 8, 12, 50);
  EXPECT_EQ(pixels.dram_offset, 1000u + 2 * 10 + 3);
  EXPECT_EQ(pixels.run_bytes, 4u);
  EXPECT_EQ(pixels.n1, 3u);
  EXPECT_EQ(pixels.dram_stride1, 10u);
  EXPECT_EQ(pixels.sram_stride1, 4u);
  std::map<uint64_t, uint64_t> expected;
  for (uint64_t e = 0; e < 12; ++e) expected[1000 + (2 + e / 4) * 10 + 3 + e % 4] = 50 + e;
  EXPECT_EQ(Bytes(LowerCopy(pixels)), expected);
  // Part of one pixel is one run; a dense place any range.
  const StridedCopy part = ElementsCopy(slice, 4, 9, 2, 50);
  EXPECT_EQ(part.dram_offset, 1000u + 2 * 10 + 3 + 1);
  EXPECT_EQ(part.run_bytes, 2u);
  EXPECT_EQ(part.n1, 1u);
  const StridedCopy dense = ElementsCopy(DramTensor(1000, 4), 4, 9, 13, 50);
  EXPECT_EQ(dense.dram_offset, 1009u);
  EXPECT_EQ(dense.run_bytes, 13u);
}

TEST(DmaLowering, AShuffledLoadPermutesEachPixelsChannels) {
  // Pixels 2..4 of channels [3, 15) of a tensor with 20 per pixel, at 1000, in 3 groups of 4:
  // channel 4i + j of a pixel lands at SRAM 12p + 3j + i.
  const TensorPlace slice{false, 1000, 20, 3};
  const StridedCopy c = ShuffledPixelsCopy(slice, CopyLayer{"s", 1, 1, 12, 3}, 2, 3, 64);
  std::map<uint64_t, uint64_t> expected;
  for (uint64_t p = 0; p < 3; ++p) {
    for (uint64_t i = 0; i < 3; ++i) {
      for (uint64_t j = 0; j < 4; ++j)
        expected[1000 + (2 + p) * 20 + 3 + 4 * i + j] = 64 + 12 * p + 3 * j + i;
    }
  }
  EXPECT_EQ(Bytes(c), expected);
  const std::vector<spec::DmaArgs> ds = LowerCopy(c);
  ASSERT_EQ(ds.size(), 1u);  // one descriptor: n1 the pixels, n2 the groups
  EXPECT_EQ(ds[0].sram_elem_stride, 3u);
  EXPECT_EQ(ds[0].run_bytes, 4u);
  EXPECT_EQ(Bytes(ds), expected);
  // One pixel: the unit pixel dimension drops, the groups stay runs of their own.
  const StridedCopy one =
      ShuffledPixelsCopy(DramTensor(0, 12), CopyLayer{"s", 1, 1, 12, 3}, 0, 1, 0);
  EXPECT_EQ(Bytes(LowerCopy(one)), Bytes(one));
  EXPECT_EQ(LowerCopy(one)[0].run_bytes, 4u);
}

TEST(DmaLowering, AShuffledWindowReadsEachGroupsPartOfTheWindow) {
  // Channels [4, 8) of a 2-group shuffle of 12 channels (groups 6 apart): input channels 2, 3 and
  // 8, 9 of each pixel, interleaved, into dense SRAM pixels of 4.
  CopyLayer window{"w", 1, 1, 4, 2};
  window.group_stride = 6, window.group_offset = 2;
  ASSERT_TRUE(CheckCopyLayer(window).ok());
  EXPECT_EQ(window.InputChannels(), 12u - 2);
  const StridedCopy c = ShuffledPixelsCopy(DramTensor(100, 12), window, 1, 2, 0);
  std::map<uint64_t, uint64_t> expected;
  for (uint64_t p = 0; p < 2; ++p) {
    for (uint64_t i = 0; i < 2; ++i) {
      for (uint64_t j = 0; j < 2; ++j) {
        expected[100 + (1 + p) * 12 + 6 * i + 2 + j] = 4 * p + 2 * j + i;
      }
    }
  }
  EXPECT_EQ(Bytes(c), expected);
  window.group_offset = 5;  // channels 5..6 of group 0 would be group 1's first
  EXPECT_FALSE(CheckCopyLayer(window).ok());
}

TEST(DmaLowering, ScatteredRunsMergeOnlyWhereTheirElementsContinue) {
  // Runs of 8 bytes 2 apart whose next run starts 16 bytes on in SRAM, 8 on in DRAM: one run.
  const StridedCopy even{0, 0, 8, 5, 1, 8, 0, 16, 0, 2};
  const std::vector<spec::DmaArgs> merged = LowerCopy(even);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].run_bytes, 40u);
  EXPECT_EQ(Bytes(merged), Bytes(even));
  // Runs 8 apart in SRAM, contiguous for dense runs, are not at element stride 2: kept apart.
  const StridedCopy apart{0, 1, 8, 5, 1, 8, 0, 8, 0, 2};
  EXPECT_EQ(LowerCopy(apart)[0].run_bytes, 8u);
  // A scattered run of 64 KiB or more splits into pieces that keep the element stride.
  const StridedCopy longer{0, 0, 70001, 1, 1, 0, 0, 0, 0, 2};
  const std::vector<spec::DmaArgs> pieces = LowerCopy(longer);
  EXPECT_GT(pieces.size(), 1u);
  EXPECT_EQ(Bytes(pieces), Bytes(longer));
}

}  // namespace
}  // namespace npu::compiler
