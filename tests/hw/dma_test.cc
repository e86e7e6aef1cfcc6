// DMA descriptors move exactly the bytes of their 3-D strided pattern, in both directions, and a
// scattered LOAD places them sram_elem_stride apart, timed as the spec and the replay say.
#include <gtest/gtest.h>

#include "compiler/cost/cost_model.h"
#include "hw/spec/config.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"
#include "tests/hw/replay_check.h"

namespace npu {
namespace {

TEST(Dma, StridedLoadThenStoreGathersAndScatters) {
  const spec::NpuConfig config = spec::DefaultConfig();
  constexpr uint32_t kIn = 1 << 20, kOut = 2 << 20;
  std::vector<int8_t> input(4096);
  for (size_t i = 0; i < input.size(); ++i) input[i] = int8_t(i * 7 + 3);
  // Gather: 3 planes x 5 rows x 6 bytes from a 4096-byte input (row stride 40, plane 1000).
  spec::DmaArgs load;
  load.dram_offset = kIn + 17;
  load.sram_addr = 1000;
  load.run_bytes = 6;
  load.n1 = 5;
  load.n2 = 3;
  load.dram_stride1 = 40;
  load.dram_stride2 = 1000;
  load.sram_stride1 = 6;
  load.sram_stride2 = 30;
  // Scatter the 90 packed bytes back out as 9 runs of 10, 16 bytes apart.
  spec::DmaArgs store;
  store.dram_offset = kOut;
  store.sram_addr = 1000;
  store.run_bytes = 10;
  store.n1 = 9;
  store.dram_stride1 = 16;
  store.sram_stride1 = 10;
  testing::ProgramBuilder program(config);
  program.Input(kIn, 4096).Output(kOut, 9 * 16);
  program.Add({spec::Opcode::kLoad, 0, testing::kS, load});
  program.Add({spec::Opcode::kStore, testing::kL, 0, store});
  StatusOr<platform::RunResult> r = platform::RunBinary(config, program.Sealed(), {input}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::vector<int8_t> packed;
  for (int p = 0; p < 3; ++p) {
    for (int row = 0; row < 5; ++row) {
      for (int b = 0; b < 6; ++b) packed.push_back(input[17 + p * 1000 + row * 40 + b]);
    }
  }
  const std::vector<int8_t>& out = r->outputs[0];
  for (int run = 0; run < 9; ++run) {
    for (int b = 0; b < 16; ++b) {
      const int8_t expected = b < 10 ? packed[run * 10 + b] : 0;  // untouched bytes stay zero
      ASSERT_EQ(out[run * 16 + b], expected) << "run " << run << " byte " << b;
    }
  }
  EXPECT_EQ(r->counters[spec::regs::kDramWriteBytes], 90u);
}

// A channel shuffle of 4 pixels x 64 channels in 2 groups: one LOAD whose runs of 32 bytes land
// 2 apart (group i at byte i of each pixel), one dense STORE.
spec::DmaArgs ShuffleLoad(uint32_t dram_offset) {
  spec::DmaArgs d;
  d.dram_offset = dram_offset;
  d.run_bytes = 32;
  d.n1 = 4, d.dram_stride1 = 64, d.sram_stride1 = 64;
  d.n2 = 2, d.dram_stride2 = 32, d.sram_stride2 = 1;
  d.sram_elem_stride = 2;
  return d;
}

uint64_t Q(const platform::RunResult& r, spec::Queue q, spec::regs::QueueCounter k) {
  return r.counters[spec::regs::QueueCounterId(q, k)];
}

TEST(Dma, ScatteredLoadShufflesChannelsAndPaysForTheWordsItSpans) {
  spec::NpuConfig config = spec::DefaultConfig();
  config.mutable_sram()->set_banks(1);  // every SRAM word on one bank: its cycles show
  constexpr uint32_t kIn = 1 << 20, kOut = 2 << 20;
  std::vector<int8_t> input(256);
  for (size_t i = 0; i < input.size(); ++i) input[i] = int8_t(i * 7 + 3);
  const std::vector<spec::Instruction> insns = {
      {spec::Opcode::kLoad, 0, testing::kS, ShuffleLoad(kIn)},
      testing::Store(0, kOut, 256, testing::kL, 0)};
  testing::ProgramBuilder program(config);
  program.Input(kIn, 256).Output(kOut, 256);
  for (const spec::Instruction& insn : insns) program.Add(insn);
  StatusOr<platform::RunResult> r = platform::RunBinary(config, program.Sealed(), {input}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (int p = 0; p < 4; ++p) {  // y[p, 2j + i] = x[p, 32i + j]
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 32; ++j) {
        ASSERT_EQ(r->outputs[0][p * 64 + 2 * j + i], input[p * 64 + 32 * i + j]) << p << i << j;
      }
    }
  }
  // 8 bursts of 32 bytes (1 data cycle each, all in flight) arrive at 101..108. Each SRAM write
  // spans 63 bytes, 4 words on the one bank, so the writes queue: 101 + 8 * 4. Alone each would
  // end at 108 + 4: the other 21 cycles are the bursts' own bank conflicts.
  EXPECT_EQ(r->records[0].end - r->records[0].start, 133u);
  EXPECT_EQ(Q(*r, spec::Queue::kLoad, spec::regs::kBankConflictCycles), 21u);
  EXPECT_EQ(r->counters[spec::regs::kDramReadBytes], 256u + 2 * spec::kInsnBytes);
  // The exact replay predicts both instructions to the cycle.
  std::vector<spec::InsnRecord> timeline;
  const StatusOr<compiler::CostEstimate> cost = compiler::PredictCost(config, insns, &timeline);
  ASSERT_TRUE(cost.ok()) << cost.status().message();
  ASSERT_EQ(timeline.size(), r->records.size());
  for (size_t i = 0; i < timeline.size(); ++i) {
    EXPECT_EQ(timeline[i].start, r->records[i].start) << "#" << i;
    EXPECT_EQ(timeline[i].end, r->records[i].end) << "#" << i;
  }
  EXPECT_EQ(cost->cycles, r->counters[spec::regs::kCycles]);
}

// The hardware's own checks: the firmware refuses these programs before the doorbell
// (firmware/program_check.h), so its instruction checks are left out.
StatusOr<platform::RunResult> RunPastTheFirmwareChecks(const spec::NpuConfig& config,
                                                       const std::string& binary) {
  platform::RunOptions options;
  options.load_checks = fw::LoadChecks::kLayoutOnly;
  return platform::RunBinary(config, binary, {}, options);
}

TEST(Dma, AStoreWithAnElementStrideIsABadInstruction) {
  const spec::NpuConfig config = spec::DefaultConfig();
  StatusOr<spec::InsnWord> word = spec::Encode({spec::Opcode::kLoad, 0, 0, ShuffleLoad(0)});
  ASSERT_TRUE(word.ok());
  (*word)[0] = static_cast<uint8_t>(spec::Opcode::kStore);
  testing::ProgramBuilder program(config);
  program.AddRaw(*word);
  StatusOr<platform::RunResult> r = RunPastTheFirmwareChecks(config, program.Sealed());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("error 'bad instruction' at instruction 0"),
            std::string::npos)
      << r.status().message();
}

TEST(Dma, AScatteredLoadPastTheSramEndIsARangeFault) {
  // 100 bytes 255 apart span 25,246 bytes: from 10,000 before the end they overrun, though a
  // dense run there would fit.
  const spec::NpuConfig config = spec::DefaultConfig();
  spec::DmaArgs load;
  load.dram_offset = 1 << 20;
  load.sram_addr = config.sram().size_bytes() - 10000;
  load.run_bytes = 100;
  load.sram_elem_stride = 255;
  testing::ProgramBuilder program(config);
  program.Constant(1 << 20, std::vector<uint8_t>(100, 1));
  program.Add({spec::Opcode::kLoad, 0, 0, load});
  StatusOr<platform::RunResult> r = RunPastTheFirmwareChecks(config, program.Sealed());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("SRAM access out of range"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("touches SRAM up to 1063822 of 1048576"), std::string::npos)
      << r.status().message();
}

}  // namespace
}  // namespace npu

namespace npu {
namespace {

// A 32 KiB copy through SRAM on DDR4-3200: the platform's DRAM and the replay run the same
// controller. They agree to within the state the platform's DRAM carries into the run (rows the
// firmware's image load left open, the refresh phase), which the replay starts without.
TEST(Dma, DramStandardTimesPlatformAndReplayAlike) {
  spec::NpuConfig config = spec::DefaultConfig();
  config.mutable_dram()->set_standard(spec::DDR4_3200);
  constexpr uint32_t kIn = 1 << 20, kOut = 2 << 20, kBytes = 32 << 10;
  const std::vector<spec::Instruction> insns = {testing::Load(kIn, 0, kBytes, 0, testing::kS),
                                                testing::Store(0, kOut, kBytes, testing::kL, 0)};
  testing::ProgramBuilder program(config);
  program.Input(kIn, kBytes).Output(kOut, kBytes);
  for (const spec::Instruction& insn : insns) program.Add(insn);
  StatusOr<platform::RunResult> r =
      platform::RunBinary(config, program.Sealed(), {std::vector<int8_t>(kBytes, 5)}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outputs[0], std::vector<int8_t>(kBytes, 5));
  const StatusOr<compiler::CostEstimate> cost = compiler::PredictCost(config, insns);
  ASSERT_TRUE(cost.ok()) << cost.status().message();
  const double measured = r->counters[spec::regs::kCycles];
  EXPECT_NEAR(cost->cycles / measured, 1.0, 0.02) << cost->cycles << " vs " << measured;
  // 2 x 32 KiB at 25.6 B/cycle is at least 2560 cycles: slower than IDEAL at 32 B/cycle.
  EXPECT_GT(measured, 2560);
  EXPECT_GT(r->dram.RowHitRate(), 0.9);
  EXPECT_GT(r->dram.bursts, 2u * kBytes / 64);
}

// A STORE held on the one store channel, and a LOAD whose token a LUT gives on the cycle that
// channel finishes the STORE before: both start on that cycle, the held STORE dispatched a delta
// after the channel freed (hw/dma's dispatcher wakes on its notification) and the LOAD a delta
// after its token, so the LOAD asks DRAM first, in the platform and in the replay (which
// dispatched the STORE in the delta the channel freed, and put it first: squeezenet1_1 on `edge`
// ended a cycle off).
TEST(Dma, AHeldStoreAndATokenedLoadStartingTogetherAskDramInThePlatformsOrder) {
  const spec::NpuConfig config = spec::DefaultConfig();
  constexpr uint32_t kIn = 1 << 20, kOut = 2 << 20, kSmall = 2048;
  const auto program_for = [&](uint32_t lut_count) {
    spec::LutArgs copy;
    copy.in_addr = 0, copy.out_addr = 65536, copy.count = lut_count, copy.bypass = true;
    return std::vector<spec::Instruction>{
        testing::Load(kIn, 0, kSmall, 0, testing::kV),
        testing::Store(131072, kOut, 16384, 0, 0),          // A: the channel busy
        testing::Store(196608, kOut + 16384, kSmall, 0, 0),  // B: held until A ends
        {spec::Opcode::kLut, testing::kL, testing::kL, copy},
        testing::Load(kIn + kSmall, 262144, kSmall, testing::kV, 0)};  // L: waits for the LUT
  };
  // The LUT's length that ends it on the cycle A ends (A's end does not depend on it).
  std::vector<spec::Instruction> insns;
  std::vector<spec::InsnRecord> timeline;
  for (uint32_t count = 64; count <= 65536 && insns.empty(); count += 16) {
    std::vector<spec::Instruction> candidate = program_for(count);
    ASSERT_TRUE(compiler::PredictCost(config, candidate, &timeline).ok());
    if (timeline[3].end == timeline[1].end) insns = std::move(candidate);
  }
  ASSERT_FALSE(insns.empty()) << "no LUT length ends with the STORE";
  testing::ProgramBuilder program(config);
  program.Input(kIn, 2 * kSmall).Output(kOut, 16384 + kSmall);
  for (const spec::Instruction& insn : insns) program.Add(insn);
  StatusOr<platform::RunResult> r = platform::RunBinary(
      config, program.Sealed(), {std::vector<int8_t>(2 * kSmall, 1)}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  // Both start as A ends; the LOAD's DRAM reads come first, so it is not slowed by B's writes.
  EXPECT_EQ(r->records[2].start, r->records[1].end);
  EXPECT_EQ(r->records[4].start, r->records[1].end);
  EXPECT_EQ(r->records[4].dram_stall, 0u);
  EXPECT_GT(r->records[2].dram_stall, 0u);
  testing::ExpectReplayMatchesRun(config, insns, *r);
}

}  // namespace
}  // namespace npu
