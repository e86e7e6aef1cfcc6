// The per-unit timing formulas, pinned down with hand-computed numbers.
#include "tests/common/hand_config.h"
#include "hw/spec/timing_model.h"

#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/footprint.h"

namespace npu::spec {
namespace {

NpuConfig Small(Dataflow dataflow) {
  NpuConfig c = ::npu::testing::HandConfig();
  c.mutable_mac()->set_rows(4);
  c.mutable_mac()->set_cols(8);
  c.mutable_mac()->set_dataflow(dataflow);
  return c;
}

ConvArgs Conv(uint32_t out_h, uint32_t out_w, uint32_t out_c, uint32_t k, uint32_t in_c) {
  ConvArgs conv;
  conv.out_h = out_h;
  conv.out_w = out_w;
  conv.out_c = out_c;
  conv.kernel_h = conv.kernel_w = k;
  conv.in_c = in_c;
  conv.in_h = out_h + k - 1;
  conv.in_w = out_w + k - 1;
  return conv;
}

TEST(TimingModel, WeightStationaryFolds) {
  // M = 5*6 = 30, K = 3*3*2 = 18, N = 10 on 4x8: ceil(18/4)=5 * ceil(10/8)=2 folds of
  // max(30, 4) cycles, + 2*4 + 8 - 2 to load the first and drain the last.
  const NpuConfig c = Small(WEIGHT_STATIONARY);
  EXPECT_EQ(ConvFolds(c, Conv(5, 6, 10, 3, 2)), 10u);
  EXPECT_EQ(ConvComputeCycles(c, Conv(5, 6, 10, 3, 2)), 314u);
  EXPECT_EQ(ConvMacs(Conv(5, 6, 10, 3, 2)), 30u * 10 * 18);
}

TEST(TimingModel, OutputStationaryFolds) {
  // Same conv: ceil(30/4)=8 * ceil(10/8)=2 folds of max(18, 4) cycles, + 14.
  const NpuConfig c = Small(OUTPUT_STATIONARY);
  EXPECT_EQ(ConvFolds(c, Conv(5, 6, 10, 3, 2)), 16u);
  EXPECT_EQ(ConvComputeCycles(c, Conv(5, 6, 10, 3, 2)), 302u);
}

TEST(TimingModel, ShortStreamsAreBoundByLoadingTheStationaryOperand) {
  // A fully connected layer streams one vector per fold (M = 1): each of the
  // ceil(64/4) * ceil(16/8) = 32 folds waits max(1, R = 4) cycles for its weights.
  const NpuConfig c = Small(WEIGHT_STATIONARY);
  ConvArgs fc = Conv(1, 1, 16, 1, 64);
  EXPECT_EQ(ConvComputeCycles(c, fc), 31u * 4 + 1 + 14);  // the last fold streams its one vector
}

TEST(TimingModel, ActAndDram) {
  NpuConfig c = ::npu::testing::HandConfig();  // 32 lanes, pipeline 4; DRAM 32 B/cycle, latency 100
  EXPECT_EQ(ActComputeCycles(c, 100), 4u + 4);
  EXPECT_EQ(DramDataCycles(c, 1000), 32u);
  EXPECT_EQ(DramTransferCycles(c, 1000), 132u);
}

TEST(TimingModel, SramWordsSpreadOverBanks) {
  const NpuConfig c = ::npu::testing::HandConfig();  // 16 banks x 16 bytes
  EXPECT_EQ(SramAccessCycles(c, 0, 256), 1u);
  EXPECT_EQ(SramAccessCycles(c, 8, 256), 2u);  // 17 words touched
  EXPECT_EQ(SramAccessCycles(c, 0, 4096), 16u);
  EXPECT_EQ(SramAccessCycles(c, 0, 0), 0u);
}

TEST(TimingModel, BurstsNeverCrossBurstBoundaries) {
  const NpuConfig c = ::npu::testing::HandConfig();  // 256-byte bursts
  DmaArgs d;
  d.dram_offset = 200;
  d.sram_addr = 0;
  d.run_bytes = 600;
  const std::vector<Burst> b = SplitIntoBursts(c, d);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0].bytes, 56u);
  EXPECT_EQ(b[1].bytes, 256u);
  EXPECT_EQ(b[3].dram_offset, 768u);
  EXPECT_EQ(b[3].sram_addr, 568u);
  EXPECT_EQ(b[3].bytes, 32u);
}

TEST(TimingModel, DmaIdealPipelinesBurstsUpToOutstanding) {
  NpuConfig c = ::npu::testing::HandConfig();  // latency 100, 32 B/cycle, 256 B bursts -> 8 data cycles each
  DmaArgs d;
  d.run_bytes = 4096;  // 16 bursts
  const std::vector<Burst> bursts = SplitIntoBursts(c, d);
  // 16 outstanding hide the latency: 100 + 16 * 8 data cycles, + 1 SRAM cycle for the last write.
  c.mutable_dma()->set_outstanding_bursts(16);
  EXPECT_EQ(DmaIdealCycles(c, Opcode::kLoad, bursts), 100u + 128 + 1);
  // 8 outstanding (64 data cycles) do not: burst 8 issues when burst 0 arrives at 108 and arrives
  // at 216; the last, issued at 164, arrives at 272.
  c.mutable_dma()->set_outstanding_bursts(8);
  EXPECT_EQ(DmaIdealCycles(c, Opcode::kLoad, bursts), 272u + 1);
  // One outstanding: every burst pays latency: 16 * (100 + 8) + 1.
  c.mutable_dma()->set_outstanding_bursts(1);
  EXPECT_EQ(DmaIdealCycles(c, Opcode::kLoad, bursts), 16u * 108 + 1);
  // Stores read SRAM first (1 cycle) then write: 16 * (1 + 100 + 8).
  EXPECT_EQ(DmaIdealCycles(c, Opcode::kStore, bursts), 16u * 109);
}

// A channel shuffle's LOAD: 4 pixels of 64 channels in 2 groups, runs of 32 bytes landing 2
// apart (group i at byte i of each pixel).
DmaArgs ShuffleLoad() {
  DmaArgs d;
  d.run_bytes = 32;
  d.n1 = 4, d.dram_stride1 = 64, d.sram_stride1 = 64;
  d.n2 = 2, d.dram_stride2 = 32, d.sram_stride2 = 1;
  d.sram_elem_stride = 2;
  return d;
}

TEST(TimingModel, ScatteredBurstsKeepTheirDramRunsAndStrideTheirSramBytes) {
  const NpuConfig c = ::npu::testing::HandConfig();  // 256-byte bursts
  DmaArgs d = ShuffleLoad();
  d.dram_offset = 240;  // the first run crosses a burst boundary after 16 bytes
  const std::vector<Burst> b = SplitIntoBursts(c, d);
  ASSERT_EQ(b.size(), 9u);
  EXPECT_EQ(b[0].bytes, 16u);
  EXPECT_EQ(b[1].dram_offset, 256u);
  EXPECT_EQ(b[1].sram_addr, 32u);  // 16 bytes 2 apart
  EXPECT_EQ(b[1].bytes, 16u);
  EXPECT_EQ(b[5].dram_offset, 272u);  // group 1 of pixel 0
  EXPECT_EQ(b[5].sram_addr, 1u);
  EXPECT_EQ(BurstSramAccess(b[5], Opcode::kLoad), (SramAccess{1, 32, 1, 0, true, 2}));
  EXPECT_EQ(BurstSramAccess(b[5], Opcode::kStore), (SramAccess{1, 32, 1, 0, false, 0}));
}

TEST(TimingModel, AScatteredLoadWritesTheWordsOfItsSpan) {
  // 8 bursts of 32 bytes, 1 data cycle each, all in flight at once: the last arrives at 108.
  // One bank: the last burst's SRAM write covers 63 bytes from 193, 4 words (4 cycles). The same
  // bytes unshuffled (group 1 after group 0 in each pixel) are 32 bytes from 224: 2 words.
  NpuConfig c = ::npu::testing::HandConfig();
  c.mutable_sram()->set_banks(1);
  DmaArgs d = ShuffleLoad();
  EXPECT_EQ(DmaIdealCycles(c, Opcode::kLoad, SplitIntoBursts(c, d)), 108u + 4);
  d.sram_elem_stride = 0;
  d.sram_stride2 = 32;
  EXPECT_EQ(DmaIdealCycles(c, Opcode::kLoad, SplitIntoBursts(c, d)), 108u + 2);
}

TEST(TimingModel, AScatteredLoadsFootprintIsTheHullOfItsBytes) {
  Instruction load{Opcode::kLoad, 0, 0, ShuffleLoad()};
  std::get<DmaArgs>(load.args).sram_addr = 1000;
  // Group 1, pixel 3, byte 31: 1000 + 1 + 3*64 + 31*2 = 1255, the chunk's last byte.
  EXPECT_EQ(DmaSramExtent(std::get<DmaArgs>(load.args)), 256u);
  const std::vector<Footprint> f = Footprints(load);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_TRUE(f[1].space == Space::kSram && f[1].begin == 1000 && f[1].end == 1256 && f[1].write);
  EXPECT_TRUE(f[0].space == Space::kDram && f[0].begin == 0 && f[0].end == 256 && !f[0].write);
}

}  // namespace
}  // namespace npu::spec
