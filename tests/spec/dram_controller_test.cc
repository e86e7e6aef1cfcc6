// The DRAM controller against command timelines computed by hand. The test device runs its command
// clock at the NPU clock (1 tick = 1 cycle) with round numbers, and no front-end latency:
//   one channel, 64-byte bursts taking 4 ticks, 8 banks in 2 groups, 256-byte pages (4 bursts);
//   CL 10, CWL 8, tRCD 10, tRP 10, tRAS 25, tRTP 5, tWR 10, tCCD_S/L 4/6, tRRD_S/L 3/5, tFAW 20,
//   tWTR_S/L 2/6, tRTW 8, tRFC 50, tREFI 1000.
// Address bits (dram_controller.h): byte [0,6), group [6], column [7,9), bank [9,11), row [11,..).
#include "hw/spec/dram_controller.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hw/spec/config.h"

namespace npu::spec {
namespace {

NpuConfig TestDevice() {
  NpuConfig c = DefaultConfig();
  for (const char* set : {"dram.standard=DDR4_3200",    "dram.latency_cycles=0",
                          "dram.device.channels=1",     "dram.device.bus_width_bits=64",
                          "dram.device.burst_length=8", "dram.device.burst_ck=4",
                          "dram.device.banks=8",        "dram.device.bank_groups=2",
                          "dram.device.page_bytes=256", "dram.device.tck_ps=1000",
                          "dram.device.cl_ck=10",       "dram.device.cwl_ck=8",
                          "dram.device.rcd_ck=10",      "dram.device.rp_ck=10",
                          "dram.device.ras_ck=25",      "dram.device.rtp_ck=5",
                          "dram.device.wr_ck=10",       "dram.device.ccd_s_ck=4",
                          "dram.device.ccd_l_ck=6",     "dram.device.rrd_s_ck=3",
                          "dram.device.rrd_l_ck=5",     "dram.device.faw_ck=20",
                          "dram.device.wtr_s_ck=2",     "dram.device.wtr_l_ck=6",
                          "dram.device.rtw_ck=8",       "dram.device.rfc_ck=50",
                          "dram.device.refi_ck=1000"}) {
    EXPECT_TRUE(ApplyOverride(c, set).ok()) << set;
  }
  EXPECT_TRUE(Validate(c).ok()) << Validate(c).message();
  return c;
}

// The DRAM offset of column `col` of `row` in bank `bank` of group `group`.
uint64_t At(uint32_t group, uint32_t bank, uint64_t row, uint32_t col = 0) {
  return (((row * 4 + bank) * 4 + col) * 2 + group) * 64;
}

using K = DramCommand::Kind;

struct DramControllerTest : ::testing::Test {
  DramControllerTest() { dram.set_trace(&trace); }
  std::vector<int64_t> Ticks(K kind) const {
    std::vector<int64_t> ticks;
    for (const DramCommand& c : trace) {
      if (c.kind == kind) ticks.push_back(c.tick);
    }
    return ticks;
  }
  NpuConfig config = TestDevice();
  DramController dram{config};
  std::vector<DramCommand> trace;
};

TEST_F(DramControllerTest, RowMissThenRowHit) {
  // ACT@0, RD@0+tRCD=10, data [20,24). The hit waits for tCCD_L (same group): RD@16, data to 30.
  EXPECT_EQ(dram.Access(0, At(0, 0, 0), 64, false), 24u);
  EXPECT_EQ(dram.Access(0, At(0, 0, 0, 1), 64, false), 30u);
  EXPECT_EQ(trace, (std::vector<DramCommand>{
                       {K::kAct, 0, 0, 0, 0}, {K::kRead, 0, 0, 0, 10}, {K::kRead, 0, 0, 0, 16}}));
  EXPECT_EQ(dram.stats().row_hits, 1u);
  EXPECT_EQ(dram.stats().row_misses, 1u);
  EXPECT_DOUBLE_EQ(dram.stats().RowHitRate(), 0.5);
  // Busy [0,30), data 2 x 4 ticks.
  EXPECT_DOUBLE_EQ(dram.stats().Efficiency(), 8.0 / 30);
}

TEST_F(DramControllerTest, OtherBankGroupUsesShortSpacing) {
  // Group 1 opens tRRD_S=3 after group 0: ACT@3, row open at 13, but tCCD_S after RD@10 holds
  // the read to 14; its data [24,28) follows the first read's on the bus without a gap.
  EXPECT_EQ(dram.Access(0, At(0, 0, 0), 64, false), 24u);
  EXPECT_EQ(dram.Access(0, At(1, 0, 0), 64, false), 28u);
  EXPECT_EQ(Ticks(K::kAct), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(Ticks(K::kRead), (std::vector<int64_t>{10, 14}));
}

TEST_F(DramControllerTest, RowConflictPrechargesAfterTras) {
  // Row 1 of the open bank: PRE waits for tRAS (ACT@0 + 25), ACT@25+tRP=35, RD@45, data to 59.
  EXPECT_EQ(dram.Access(0, At(0, 0, 0), 64, false), 24u);
  EXPECT_EQ(dram.Access(0, At(0, 0, 1), 64, false), 59u);
  EXPECT_EQ(trace[2], (DramCommand{K::kPre, 0, 0, 0, 25}));
  EXPECT_EQ(trace[3], (DramCommand{K::kAct, 0, 0, 1, 35}));
  EXPECT_EQ(trace[4], (DramCommand{K::kRead, 0, 0, 1, 45}));
  EXPECT_EQ(dram.stats().row_conflicts, 1u);
}

TEST_F(DramControllerTest, FifthActivateWaitsForFourActivateWindow) {
  // ACTs alternate groups: 0, 3 (tRRD_S), 6, 9; the fifth would go at 12 but four ACTs since 0
  // hold it to 0 + tFAW = 20.
  const uint64_t addrs[] = {At(0, 0, 0), At(1, 0, 0), At(0, 1, 0), At(1, 1, 0), At(0, 2, 0)};
  for (uint64_t a : addrs) dram.Access(0, a, 64, false);
  EXPECT_EQ(Ticks(K::kAct), (std::vector<int64_t>{0, 3, 6, 9, 20}));
}

TEST_F(DramControllerTest, RefreshClosesRowsAndBlocksActivates) {
  // At tREFI=1000 the open bank is precharged (PREA@1000), REF@1010, and the next ACT waits
  // until 1010 + tRFC = 1060: the would-be row hit is a miss. RD@1070, data to 1084.
  EXPECT_EQ(dram.Access(0, At(0, 0, 0), 64, false), 24u);
  EXPECT_EQ(dram.Access(1000, At(0, 0, 0, 1), 64, false), 1084u);
  EXPECT_EQ(Ticks(K::kPreAll), (std::vector<int64_t>{1000}));
  EXPECT_EQ(Ticks(K::kRefresh), (std::vector<int64_t>{1010}));
  EXPECT_EQ(Ticks(K::kAct), (std::vector<int64_t>{0, 1060}));
  EXPECT_EQ(dram.stats().refreshes, 1u);
  EXPECT_EQ(dram.stats().row_hits, 0u);
}

TEST_F(DramControllerTest, WriteToReadTurnaround) {
  // WR@10 (CWL 8): data [18,22). A read of the same group waits for the write data's end plus
  // tWTR_L: RD@28, data to 42.
  EXPECT_EQ(dram.Access(0, At(0, 0, 0), 64, true), 22u);
  EXPECT_EQ(dram.Access(0, At(0, 0, 0, 1), 64, false), 42u);
  EXPECT_EQ(Ticks(K::kWrite), (std::vector<int64_t>{10}));
  EXPECT_EQ(Ticks(K::kRead), (std::vector<int64_t>{28}));
}

TEST_F(DramControllerTest, ReadToWriteTurnaround) {
  // RD@10, data to 24. A write waits tRTW=8 after the read and for the bus: WR@18, data to 30.
  EXPECT_EQ(dram.Access(0, At(0, 0, 0), 64, false), 24u);
  EXPECT_EQ(dram.Access(0, At(0, 0, 0, 1), 64, true), 30u);
  EXPECT_EQ(Ticks(K::kWrite), (std::vector<int64_t>{18}));
}

TEST_F(DramControllerTest, SubBurstTransferCostsAWholeBurst) {
  EXPECT_EQ(dram.Access(0, At(0, 0, 0), 1, false), 24u);  // as a 64-byte read
  EXPECT_EQ(dram.stats().data_ck, 4u);
  // 8 bytes straddling a burst boundary: two bursts (groups 0 and 1).
  dram.Access(100, 60, 8, false);
  EXPECT_EQ(dram.stats().bursts, 3u);
}

TEST(DramController, ConvertsBetweenNpuAndDramClocks) {
  NpuConfig c = DefaultConfig();
  ASSERT_TRUE(ApplyOverride(c, "dram.standard=DDR4_3200").ok());
  DramController dram(c);  // tCK 625 ps, NPU 1000 ps
  EXPECT_EQ(dram.ToTicks(1), 2);
  EXPECT_EQ(dram.ToTicks(5), 8);
  EXPECT_EQ(dram.ToCycles(4), 3u);
  EXPECT_EQ(dram.ToCycles(8), 5u);
}

TEST(DramController, IdealIsTheBusOfBytesPerCycle) {
  const NpuConfig c = DefaultConfig();  // 32 bytes per cycle, latency 100
  DramController dram(c);
  EXPECT_TRUE(dram.ideal());
  EXPECT_EQ(dram.Access(0, 0, 64, false), 102u);
  EXPECT_EQ(dram.Access(0, 4096, 33, true), 104u);  // queued 2 cycles, 2 data cycles
  EXPECT_EQ(dram.stats().queued_cycles, 2u);
}

TEST(DramController, StreamingReadsReachMostOfPeakOnEveryStandard) {
  for (const char* standard : {"DDR4_3200", "LPDDR4_4266", "LPDDR5_6400", "HBM2"}) {
    NpuConfig c = DefaultConfig();
    ASSERT_TRUE(ApplyOverride(c, std::string("dram.standard=") + standard).ok());
    ASSERT_TRUE(Validate(c).ok()) << standard << ": " << Validate(c).message();
    DramController dram(c);
    uint64_t end = 0;
    constexpr uint64_t kBytes = 1 << 20;
    for (uint64_t a = 0; a < kBytes; a += 256) end = dram.Access(0, a, 256, false);
    const double achieved = static_cast<double>(kBytes) / (end - c.dram().latency_cycles());
    EXPECT_GT(achieved / DramPeakBytesPerCycle(c), 0.85) << standard;
    EXPECT_GT(dram.stats().RowHitRate(), 0.9) << standard;
  }
}

}  // namespace
}  // namespace npu::spec
