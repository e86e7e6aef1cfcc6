// The SRAM accesses of LUT, ELTWISE and ACT with a table, their footprints, and IdealCycles over
// them, pinned with hand-computed numbers.
#include "tests/common/hand_config.h"
#include "hw/spec/unit_accesses.h"

#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/footprint.h"
#include "hw/spec/timing_model.h"

namespace npu::spec {
namespace {

// The default config (16 banks x 16 B, 32 lanes, pipeline 4) with `banks` banks.
NpuConfig Banks(uint32_t banks) {
  NpuConfig c = ::npu::testing::HandConfig();
  c.mutable_sram()->set_banks(banks);
  return c;
}

Instruction Lut(uint32_t count) {
  LutArgs l;
  l.table_addr = 0, l.in_addr = 4096, l.out_addr = 8192, l.count = count;
  return {Opcode::kLut, 0, 0, l};
}

Instruction Eltwise(Broadcast broadcast) {
  EltwiseArgs e;
  e.a_addr = 0, e.b_addr = 2048, e.out_addr = 4096;
  e.count = 1024, e.channels = 64, e.broadcast = uint32_t(broadcast);
  return {Opcode::kEltwise, 0, 0, e};
}

TEST(UnitAccesses, LutReadsTableThenInputThenWrites) {
  const std::vector<SramAccess> expected = {
      {0, 256, 1, 0, false}, {4096, 1000, 1, 0, false}, {8192, 1000, 1, 0, true}};
  EXPECT_EQ(UnitSramAccesses(Lut(1000)), expected);
  // 16 banks: table 16 words (1 cycle), input and output 63 words (4 each); the vector unit's
  // 4 + ceil(1000 / 32) = 36 cycles dominate.
  EXPECT_EQ(UnitSramIdealCycles(Banks(16), Lut(1000)), 9u);
  EXPECT_EQ(IdealCycles(Banks(16), Lut(1000)), 36u);
  // One bank: 16 + 63 + 63 cycles of SRAM.
  EXPECT_EQ(IdealCycles(Banks(1), Lut(1000)), 142u);
  const std::vector<Footprint> f = Footprints(Lut(1000));
  ASSERT_EQ(f.size(), 3u);
  EXPECT_TRUE(f[0].space == Space::kSram && f[0].begin == 0 && f[0].end == 256 && !f[0].write);
  EXPECT_TRUE(f[1].begin == 4096 && f[1].end == 5096 && !f[1].write);
  EXPECT_TRUE(f[2].begin == 8192 && f[2].end == 9192 && f[2].write);
}

// A bypass reads no table; with channels the input is a run per pixel and the output a
// scattered run per pixel, which costs every bank word it touches.
TEST(UnitAccesses, StridedBypassLutReadsPixelsAndScattersThem) {
  Instruction insn = Lut(64);
  LutArgs& l = std::get<LutArgs>(insn.args);
  l.bypass = true, l.channels = 16, l.in_pixel_stride = 32, l.out_pixel_stride = 64;
  l.out_elem_stride = 2;
  const std::vector<SramAccess> expected = {{4096, 16, 4, 32, false},
                                            {8192, 16, 4, 64, true, 2}};
  EXPECT_EQ(UnitSramAccesses(insn), expected);
  const std::vector<Footprint> f = Footprints(insn);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_TRUE(f[0].begin == 4096 && f[0].end == 4096 + 3 * 32 + 16 && !f[0].write);
  EXPECT_TRUE(f[1].begin == 8192 && f[1].end == 8192 + 3 * 64 + 31 && f[1].write);
  // One bank of 16 bytes: 4 input words, 8 output words (each pixel's 31-byte span).
  EXPECT_EQ(UnitSramIdealCycles(Banks(1), insn), 4u + 8u);
}

TEST(UnitAccesses, EltwiseReadsTheBBytesOfItsBroadcast) {
  const std::pair<Broadcast, uint64_t> cases[] = {{Broadcast::kNone, 1024},
                                                  {Broadcast::kChannel, 64},
                                                  {Broadcast::kPixel, 16},
                                                  {Broadcast::kScalar, 1}};
  for (const auto& [mode, b_bytes] : cases) {
    const Instruction insn = Eltwise(mode);
    const std::vector<SramAccess> expected = {
        {0, 1024, 1, 0, false}, {2048, b_bytes, 1, 0, false}, {4096, 1024, 1, 0, true}};
    EXPECT_EQ(UnitSramAccesses(insn), expected) << int(mode);
    // Vector: 4 + ceil(2 * 1024 / 32) = 68; 4 + ceil(1024 / 32) = 36 with b held in the lanes
    // (per channel or scalar). One bank: 64 + ceil(b / 16) + 64 words.
    const bool b_held = mode == Broadcast::kChannel || mode == Broadcast::kScalar;
    EXPECT_EQ(IdealCycles(Banks(16), insn), b_held ? 36u : 68u) << int(mode);
    EXPECT_EQ(IdealCycles(Banks(1), insn), 128u + (b_bytes + 15) / 16) << int(mode);
    const std::vector<Footprint> f = Footprints(insn);
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[1].end - f[1].begin, b_bytes);
  }
}

TEST(UnitAccesses, ActReadsItsTableBetweenParametersAndOutput) {
  ActArgs a;
  a.pixels = 10, a.channels = 20, a.out_pixel_stride = 32;
  a.param_addr = 0, a.out_addr = 1024, a.table_addr = 512;
  const Instruction plain{Opcode::kAct, 0, 0, a};
  a.use_table = true;
  const Instruction table{Opcode::kAct, 0, 0, a};
  const std::vector<SramAccess> expected = {
      {0, 240, 1, 0, false}, {512, 256, 1, 0, false}, {1024, 20, 10, 32, true}};
  EXPECT_EQ(UnitSramAccesses(table), expected);
  EXPECT_EQ(UnitSramAccesses(plain).size(), 2u);
  // One bank: parameters 15 words, table 16, output 10 runs of 2 words; vector 4 + 7.
  EXPECT_EQ(IdealCycles(Banks(1), plain), 35u);
  EXPECT_EQ(IdealCycles(Banks(1), table), 51u);
  EXPECT_EQ(IdealCycles(Banks(16), table), 11u);
  EXPECT_EQ(Footprints(plain).size(), 3u);
  const std::vector<Footprint> f = Footprints(table);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_TRUE(f[2].begin == 512 && f[2].end == 768 && !f[2].write);
}

}  // namespace
}  // namespace npu::spec
