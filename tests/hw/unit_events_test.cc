// The event counts the units record per instruction (InsnRecord::events, priced by
// hw/spec/energy_model.h) against counts derived independently: a hand-built LOAD, LOAD, LOAD,
// CONV, ACT, STORE program whose MACs, accumulator entries and lane operations are written out
// by hand, and whose SRAM bytes and words must equal spec::UnitSramAccesses' plus the DMA bytes
// plus the CONV's operand stream (worked out by hand below).
#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/semantics.h"
#include "hw/spec/sram_words.h"
#include "hw/spec/timing_model.h"
#include "hw/spec/unit_accesses.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"

namespace npu {
namespace {

using testing::kC;
using testing::kL;
using testing::kS;
using testing::kV;

constexpr uint32_t kM = 20, kK = 24, kN = 12;  // pixels, input channels, output channels
constexpr uint32_t kIn = 1 << 20, kWeights = kIn + 4096, kParams = kIn + 8192;
constexpr uint32_t kOut = kIn + 12288;
constexpr uint32_t kSramIn = 0, kSramW = 1024, kSramParams = 2048, kSramOut = 4096;

spec::ConvArgs Conv() {
  spec::ConvArgs c;
  c.in_addr = kSramIn;
  c.in_h = 1, c.in_w = kM, c.in_c = kK;
  c.out_h = 1, c.out_w = kM, c.out_c = kN;
  c.wt_addr = kSramW;
  return c;
}

spec::ActArgs Act() {
  spec::ActArgs a;
  a.pixels = kM, a.channels = kN;
  a.param_addr = kSramParams;
  a.out_addr = kSramOut;
  a.out_pixel_stride = kN;
  return a;
}

std::vector<uint8_t> Params() {
  std::vector<uint8_t> block(kN * spec::kActParamBytes);
  for (uint32_t n = 0; n < kN; ++n) spec::WriteActParams(block, n, {0, 1 << 30, 40});
  return block;
}

std::vector<spec::Instruction> Instructions() {
  return {testing::Load(kIn, kSramIn, kM * kK),
          testing::Load(kWeights, kSramW, kN * kK),
          testing::Load(kParams, kSramParams, kN * spec::kActParamBytes, 0, kC),
          {spec::Opcode::kConv, kL, kV, Conv()},
          {spec::Opcode::kAct, kC, kS, Act()},
          testing::Store(kSramOut, kOut, kM * kN, kV, 0)};
}

// SRAM bytes and bank words the program's instructions access, derived from the ISA alone.
struct Traffic {
  uint64_t bytes = 0, words = 0;
};
Traffic ExpectedSramTraffic(const spec::NpuConfig& c) {
  Traffic t;
  for (const spec::Instruction& insn : Instructions()) {
    if (const auto* dma = std::get_if<spec::DmaArgs>(&insn.args)) {
      t.bytes += spec::DmaBytes(*dma);
      for (const spec::Burst& b : spec::SplitIntoBursts(c, *dma)) {
        t.words +=
            spec::SramWords(spec::BurstSramAccess(b, insn.opcode), c.sram().bank_width_bytes());
      }
      continue;
    }
    if (std::holds_alternative<spec::ConvArgs>(insn.args)) {
      // One fold (K = 24 and N = 12 fit the 32 x 32 array): the 24 x 12 weight block, 12 runs of
      // 24 bytes (2 words of 16 bytes each), then 20 input vectors of 24 bytes (2 words each).
      t.bytes += kK * kN + kM * kK;
      t.words += kN * 2 + kM * 2;
      continue;
    }
    for (const spec::SramAccess& a : spec::UnitSramAccesses(insn)) {
      t.bytes += a.bytes();
      t.words += spec::SramWords(a, c.sram().bank_width_bytes());
    }
  }
  return t;
}

TEST(UnitEvents, CountsMatchTheProgramDerivedIndependently) {
  const spec::NpuConfig config = spec::DefaultConfig();
  testing::ProgramBuilder p(config);
  p.Input(kIn, kM * kK).Constant(kWeights, std::vector<uint8_t>(kN * kK, 3));
  p.Constant(kParams, Params()).Output(kOut, kM * kN);
  for (const spec::Instruction& insn : Instructions()) p.Add(insn);
  StatusOr<platform::RunResult> r =
      platform::RunBinary(config, p.Sealed(), {std::vector<int8_t>(kM * kK, 1)}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->records.size(), 6u);

  const spec::UnitEvents& conv = r->records[3].events;
  EXPECT_EQ(conv.macs, uint64_t{kM} * kN * kK);  // 1x1 kernel: M x N x K
  EXPECT_EQ(conv.macs, r->counters[spec::regs::kMacs]);
  EXPECT_EQ(conv.sram_read_bytes, uint64_t{kN} * kK + kM * kK);  // weights, input
  EXPECT_EQ(conv.sram_read_words, uint64_t{kN} * 2 + kM * 2);    // streamed: see above
  EXPECT_EQ(conv.sram_write_bytes, 0u);
  EXPECT_EQ(conv.acc_read_bytes, 0u);  // not accumulating
  EXPECT_EQ(conv.acc_write_bytes, uint64_t{kM} * kN * 4);
  const spec::UnitEvents& act = r->records[4].events;
  EXPECT_EQ(act.acc_read_bytes, uint64_t{kM} * kN * 4);
  EXPECT_EQ(act.vector_ops, uint64_t{kM} * kN);  // one per accumulator entry
  EXPECT_EQ(act.sram_read_bytes, uint64_t{kN} * spec::kActParamBytes);
  EXPECT_EQ(act.sram_write_bytes, uint64_t{kM} * kN);
  const spec::UnitEvents& load = r->records[0].events;
  EXPECT_EQ(load.dma_bytes, uint64_t{kM} * kK);
  EXPECT_EQ(load.sram_write_bytes, uint64_t{kM} * kK);
  EXPECT_EQ(load.dram_read_bytes, uint64_t{kM} * kK + spec::kInsnBytes);  // its data and fetch
  EXPECT_EQ(r->records[5].events.dram_write_bytes, uint64_t{kM} * kN);

  spec::UnitEvents sum;
  for (const hw::InsnRecord& rec : r->records) {
    EXPECT_EQ(rec.events.fetched_instructions, 1u);
    sum += rec.events;
  }
  const Traffic expected = ExpectedSramTraffic(config);
  EXPECT_EQ(sum.sram_read_bytes + sum.sram_write_bytes, expected.bytes);
  EXPECT_EQ(sum.sram_read_words + sum.sram_write_words, expected.words);
  EXPECT_EQ(sum.dram_read_bytes, r->counters[spec::regs::kDramReadBytes]);
  EXPECT_EQ(sum.dram_write_bytes, r->counters[spec::regs::kDramWriteBytes]);
}

}  // namespace
}  // namespace npu
