// LUT, ELTWISE and ACT with a table on the platform: hand-built programs whose outputs equal the
// ISA semantics, whose unit cycles equal hand-computed formulas, which overlap DMA like every
// unit, and which the compiler's exact replay times instruction by instruction.
#include <gtest/gtest.h>

#include "tests/common/hand_config.h"
#include "hw/spec/arith.h"
#include "hw/spec/config.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"
#include "tests/hw/replay_check.h"

namespace npu {
namespace {

using spec::Queue;
using spec::regs::QueueCounter;
using testing::Duration;
using testing::kL;
using testing::kS;
using testing::kV;
using Bytes = std::vector<int8_t>;

constexpr uint32_t kIn = 1 << 20, kOut = 2 << 20, kBig = 3 << 20;

Bytes Pattern(size_t n, int seed) {
  Bytes v(n);
  for (size_t i = 0; i < n; ++i) v[i] = int8_t((i * 37 + seed * 11) % 251 - 125);
  return v;
}

// x -> clamp(3 - 2x): every entry distinct from its index.
Bytes Table() {
  Bytes t(spec::kLutEntries);
  for (int k = 0; k < 256; ++k) t[k] = int8_t(spec::Clamp64(3 - 2 * (k - 128), -128, 127));
  return t;
}

spec::NpuConfig Config(uint32_t banks) {
  spec::NpuConfig c = ::npu::testing::HandConfig();  // 32 lanes, pipeline 4, 16 B bank words
  c.mutable_sram()->set_banks(banks);
  return c;
}

// A program and the instructions it encodes (for the replay).
struct Bench {
  explicit Bench(const spec::NpuConfig& c) : config(c), program(c) {}
  void Add(const spec::Instruction& insn) {
    program.Add(insn);
    insns.push_back(insn);
  }
  platform::RunResult Run(const std::vector<Bytes>& inputs) {
    StatusOr<platform::RunResult> r = platform::RunBinary(config, program.Sealed(), inputs, {});
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *std::move(r) : platform::RunResult{};
  }
  spec::NpuConfig config;
  testing::ProgramBuilder program;
  std::vector<spec::Instruction> insns;
};


// LOAD `in` to SRAM 0, run `op` once it is there, STORE `out_bytes` from `out_addr`.
platform::RunResult RunOne(const spec::NpuConfig& config, spec::Instruction op, const Bytes& in,
                           uint32_t out_addr, uint32_t out_bytes) {
  Bench b(config);
  b.program.Input(kIn, in.size()).Output(kOut, out_bytes);
  b.Add(testing::Load(kIn, 0, in.size(), 0, kV));
  op.wait_mask = kL, op.signal_mask = kS;
  b.Add(op);
  b.Add(testing::Store(out_addr, kOut, out_bytes, kV, 0));
  return b.Run({in});
}

spec::Instruction Lut(uint32_t count) {
  spec::LutArgs l;
  l.table_addr = 0, l.in_addr = 256, l.out_addr = 4096, l.count = count;
  return {spec::Opcode::kLut, 0, 0, l};
}

Bytes TableAndData(uint32_t count) {
  Bytes in = Table();
  const Bytes data = Pattern(count, 1);
  in.insert(in.end(), data.begin(), data.end());
  return in;
}

TEST(TableOps, LutLooksUpEveryByteInItsVectorCycles) {
  // 16 banks: table 1 + input 4 + output 4 SRAM cycles < 4 + ceil(1000 / 32) = 36.
  const Bytes in = TableAndData(1000);
  const platform::RunResult r = RunOne(Config(16), Lut(1000), in, 4096, 1000);
  ASSERT_EQ(r.outputs.size(), 1u);
  for (size_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(r.outputs[0][i], Table()[in[256 + i] + 128]) << i;
  }
  EXPECT_EQ(r.counters[spec::regs::QueueCounterId(Queue::kVector, QueueCounter::kBusyCycles)], 36u);
}

// A channel shuffle of 2 groups over 8 channels of 50 pixels, as two strided bypass LUTs: group i
// reads channels 4i..4i+3 of each pixel and writes them 2 bytes apart from out + i. The output
// is the shuffle, and the unit's time is its lanes' (4 + ceil(200 / 32) = 11 cycles each), the
// scattered writes' 2 words a pixel over 16 banks being fewer.
TEST(TableOps, StridedBypassLutsShuffleChannels) {
  constexpr uint32_t kPixels = 50, kC = 8;
  const Bytes in = Pattern(kPixels * kC, 3);
  Bench b(Config(16));
  b.program.Input(kIn, in.size()).Output(kOut, in.size());
  b.Add(testing::Load(kIn, 0, in.size(), 0, kV));
  for (uint32_t group = 0; group < 2; ++group) {
    spec::LutArgs l;
    l.bypass = true, l.in_addr = group * 4, l.out_addr = 4096 + group, l.count = kPixels * 4;
    l.channels = 4, l.in_pixel_stride = kC, l.out_pixel_stride = kC, l.out_elem_stride = 2;
    b.Add({spec::Opcode::kLut, uint8_t(group == 0 ? kL : 0), uint8_t(group == 1 ? kS : 0), l});
  }
  b.Add(testing::Store(4096, kOut, in.size(), kV, 0));
  const platform::RunResult r = b.Run({in});
  ASSERT_EQ(r.outputs.size(), 1u);
  for (uint32_t p = 0; p < kPixels; ++p) {
    for (uint32_t j = 0; j < 4; ++j) {
      for (uint32_t i = 0; i < 2; ++i) {
        ASSERT_EQ(r.outputs[0][p * kC + j * 2 + i], in[p * kC + i * 4 + j]) << p << " " << j;
      }
    }
  }
  EXPECT_EQ(r.counters[spec::regs::QueueCounterId(Queue::kVector, QueueCounter::kBusyCycles)], 22u);
}

TEST(TableOps, LutOnOneBankIsBoundBySram) {
  // One bank of 16 B words: table 16 + input 63 + output 63 cycles.
  const platform::RunResult r = RunOne(Config(1), Lut(1000), TableAndData(1000), 4096, 1000);
  EXPECT_EQ(Duration(r, 1), 142u);
}

TEST(TableOps, ActWithTableReadsItsTable) {
  // Zero accumulators, bias b_c, x1.0: y_c = clamp(b_c + 5), then the table. One bank: parameters
  // 96 B (6 words) + table 16 words + output 32 B (2 words) = 24 > 4 + 1 vector cycles.
  spec::ActArgs a;
  a.pixels = 4, a.channels = 8, a.out_pixel_stride = 8;
  a.param_addr = 0, a.table_addr = 256, a.out_addr = 4096, a.out_zero_point = 5;
  a.use_table = true;
  std::vector<uint8_t> params(8 * spec::kActParamBytes);
  for (uint32_t c = 0; c < 8; ++c)
    spec::WriteActParams(params, c, {int32_t(c) * 40 - 150, 1 << 30, 30});
  Bytes in(params.begin(), params.end());
  in.resize(256);
  const Bytes table = Table();
  in.insert(in.end(), table.begin(), table.end());
  const platform::RunResult r = RunOne(Config(1), {spec::Opcode::kAct, 0, 0, a}, in, 4096, 32);
  ASSERT_EQ(r.outputs.size(), 1u);
  for (uint32_t i = 0; i < 32; ++i) {
    const int64_t y = spec::Clamp64(int64_t(i % 8) * 40 - 150 + 5, -128, 127);
    ASSERT_EQ(r.outputs[0][i], table[y + 128]) << i;
  }
  EXPECT_EQ(Duration(r, 1), 24u);
}

TEST(TableOps, EltwiseEveryBroadcastAndOpOnOneBank) {
  // a: 1024 B at 0, b: 1024 B at 2048 (broadcast modes read its first 1024, 64, 16, 1 bytes),
  // channels 64. One bank: a 64 + b + output 64 words; vector 4 + 64 = 68.
  const spec::EltwiseOp ops[] = {spec::EltwiseOp::kAdd, spec::EltwiseOp::kMax,
                                 spec::EltwiseOp::kMul, spec::EltwiseOp::kMin};
  const uint64_t expected_cycles[] = {192, 132, 129, 129};
  Bench b(Config(1));
  const Bytes in = Pattern(4096, 5);
  b.program.Input(kIn, in.size()).Output(kOut, 4096);
  b.Add(testing::Load(kIn, 0, 4096, 0, kV));
  std::vector<spec::EltwiseArgs> args;
  for (uint32_t k = 0; k < 4; ++k) {
    spec::EltwiseArgs e;
    e.a_addr = 0, e.b_addr = 2048, e.out_addr = 8192 + 1024 * k, e.count = 1024;
    e.op = uint32_t(ops[k]), e.broadcast = k, e.channels = 64;
    e.a_zero_point = -3, e.b_zero_point = 7, e.out_zero_point = 2;
    e.a_multiplier = ops[k] == spec::EltwiseOp::kMul ? 1 << 27 : 3 << 10;
    e.b_multiplier = ops[k] == spec::EltwiseOp::kMul ? 0 : -(5 << 9);
    e.shift = ops[k] == spec::EltwiseOp::kMul ? 31 : 12;
    e.clamp_min = -100;
    args.push_back(e);
    b.Add({spec::Opcode::kEltwise, uint8_t(k == 0 ? kL : 0), uint8_t(k == 3 ? kS : 0), e});
  }
  b.Add(testing::Store(8192, kOut, 4096, kV, 0));
  const platform::RunResult r = b.Run({in});
  ASSERT_EQ(r.outputs.size(), 1u);
  for (uint32_t k = 0; k < 4; ++k) {
    Bytes expected;
    spec::ComputeEltwise(args[k], std::span(in).first(1024),
                         std::span(in).subspan(2048, spec::EltwiseBBytes(args[k])), expected);
    EXPECT_EQ(Bytes(r.outputs[0].begin() + 1024 * k, r.outputs[0].begin() + 1024 * (k + 1)),
              expected)
        << "op " << k;
    EXPECT_EQ(Duration(r, 1 + k), expected_cycles[k]) << "op " << k;
  }
}

// A 128 KiB LOAD and a LUT over the (zeroed) SRAM. `dependent` makes the LUT wait for the load
// and STOREs its result (independent, that STORE's DRAM traffic would slow the load down).
platform::RunResult LoadAndLut(bool dependent, uint64_t& load_cycles, uint64_t& store_cycles) {
  const spec::NpuConfig config = Config(16);
  Bench b(config);
  if (dependent) b.program.Output(kOut, 1000);
  b.program.Constant(kBig, std::vector<uint8_t>(128 * 1024, 7));
  spec::DmaArgs big;
  big.dram_offset = kBig, big.sram_addr = 256 * 1024, big.run_bytes = 32768, big.n1 = 4;
  big.dram_stride1 = big.sram_stride1 = 32768;
  b.Add({spec::Opcode::kLoad, 0, uint8_t(dependent ? kV : 0), big});
  spec::Instruction lut = Lut(1000);
  lut.wait_mask = dependent ? kL : 0, lut.signal_mask = dependent ? kS : 0;
  b.Add(lut);
  const spec::Instruction store = testing::Store(4096, kOut, 1000, kV, 0);
  if (dependent) b.Add(store);
  load_cycles =
      spec::DmaIdealCycles(config, spec::Opcode::kLoad, spec::SplitIntoBursts(config, big));
  store_cycles = spec::IdealCycles(config, store);
  return b.Run({});
}

TEST(TableOps, IndependentLoadOverlapsLut) {
  uint64_t load = 0, store = 0;
  const platform::RunResult r = LoadAndLut(false, load, store);
  const fw::Counters& c = r.counters;
  EXPECT_EQ(Duration(r, 0), load);
  EXPECT_EQ(Duration(r, 1), 36u);  // 4 + ceil(1000 / 32); its SRAM accesses end before any burst
  EXPECT_EQ(r.records[1].start, r.records[0].start);
  EXPECT_EQ(c[spec::regs::QueueCounterId(Queue::kVector, QueueCounter::kWaitInputCycles)], 0u);
  // Both start after the one fetch; the load ends the run.
  EXPECT_EQ(c[spec::regs::kCycles], c[spec::regs::kFetchCycles] + load);
}

TEST(TableOps, DependentLutWaitsForTheLoad) {
  uint64_t load = 0, store = 0;
  const platform::RunResult r = LoadAndLut(true, load, store);
  const fw::Counters& c = r.counters;
  EXPECT_EQ(c[spec::regs::QueueCounterId(Queue::kVector, QueueCounter::kWaitInputCycles)], load);
  EXPECT_EQ(r.outputs.at(0), Bytes(1000, 0));  // a zero table
  EXPECT_EQ(c[spec::regs::kCycles], c[spec::regs::kFetchCycles] + load + 36 + store);
}

// Everything at once on one bank, where a DMA burst (16 cycles on the bank) and a unit's access
// collide: the exact replay predicts every instruction's start and end.
TEST(TableOps, ReplayMatchesThePlatformInstructionByInstruction) {
  const spec::NpuConfig config = Config(1);
  Bench b(config);
  const Bytes in = TableAndData(3000);
  b.program.Input(kIn, in.size()).Output(kOut, 3000);
  b.program.Constant(kBig, std::vector<uint8_t>(64 * 1024, 7));
  b.Add(testing::Load(kIn, 0, in.size(), 0, kV));
  spec::DmaArgs big;
  big.dram_offset = kBig, big.sram_addr = 256 * 1024, big.run_bytes = 32768, big.n1 = 2;
  big.dram_stride1 = big.sram_stride1 = 32768;
  b.Add({spec::Opcode::kLoad, 0, 0, big});
  spec::Instruction lut = Lut(3000);
  lut.wait_mask = kL;
  b.Add(lut);
  spec::EltwiseArgs e;
  e.a_addr = 4096, e.b_addr = 256, e.out_addr = 4096, e.count = 3000, e.channels = 30;
  e.broadcast = uint32_t(spec::Broadcast::kChannel), e.a_multiplier = 1 << 14;
  e.b_multiplier = 1 << 14, e.shift = 15;
  b.Add({spec::Opcode::kEltwise, 0, kS, e});
  b.Add(testing::Store(4096, kOut, 3000, kV, 0));
  const platform::RunResult r = b.Run({in});
  testing::ExpectReplayMatchesRun(config, b.insns, r);
  EXPECT_GT(
      r.counters[spec::regs::QueueCounterId(Queue::kVector, QueueCounter::kBankConflictCycles)],
      0u);
}

// One instruction alone on the platform. Faults: what the unit refuses, named like every other
// fault (docs/isa.md). The firmware's checks would refuse these first, so they are left out to
// reach the hardware's.
StatusOr<platform::RunResult> RunAlone(const spec::Instruction& insn) {
  const spec::NpuConfig config = Config(16);
  testing::ProgramBuilder program(config);
  program.Add(insn);
  platform::RunOptions options;
  options.load_checks = fw::LoadChecks::kLayoutOnly;
  return platform::RunBinary(config, program.Sealed(), {}, options);
}

std::string FaultOf(const spec::Instruction& insn) {
  StatusOr<platform::RunResult> r = RunAlone(insn);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.status().message();
}

TEST(TableOps, EmptyLutIsABadInstruction) {
  EXPECT_NE(FaultOf(Lut(0)).find("error 'bad instruction' at instruction 0"), std::string::npos);
}

TEST(TableOps, LutPixelsThatOverlapAreABadInstruction) {
  spec::Instruction lut = Lut(16);
  auto& l = std::get<spec::LutArgs>(lut.args);
  l.channels = 8, l.in_pixel_stride = 4, l.out_pixel_stride = 8, l.out_elem_stride = 1;
  const std::string fault = FaultOf(lut);
  EXPECT_NE(fault.find("error 'bad instruction' at instruction 0"), std::string::npos) << fault;
}

TEST(TableOps, ABypassLutReadsNoTable) {
  // The table address lies past the SRAM's end; a bypass never reads it, so it runs.
  spec::Instruction lut = Lut(16);
  auto& l = std::get<spec::LutArgs>(lut.args);
  l.bypass = true, l.table_addr = (1 << 20) - 100;
  StatusOr<platform::RunResult> r = RunAlone(lut);
  EXPECT_TRUE(r.ok()) << r.status().message();
}

TEST(TableOps, LutTableOutsideSramFaults) {
  spec::Instruction lut = Lut(16);
  std::get<spec::LutArgs>(lut.args).table_addr = (1 << 20) - 100;  // 256 bytes past the end
  EXPECT_NE(FaultOf(lut).find("SRAM access out of range"), std::string::npos);
}

TEST(TableOps, MulWithABMultiplierIsABadInstruction) {
  spec::EltwiseArgs e;
  e.count = 8, e.op = uint32_t(spec::EltwiseOp::kMul), e.b_multiplier = 3;
  EXPECT_NE(FaultOf({spec::Opcode::kEltwise, 0, 0, e}).find("bad instruction"), std::string::npos);
}

}  // namespace
}  // namespace npu
