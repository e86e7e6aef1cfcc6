// RESIZE on the platform: hand-built programs whose outputs equal the ISA semantics on a channel
// block of a wider tensor, whose unit cycles equal hand-computed formulas (vector- and
// SRAM-bound), which the compiler's exact replay times instruction by instruction, and whose
// faults are named like every other fault.
#include <gtest/gtest.h>

#include "tests/common/hand_config.h"
#include "hw/spec/config.h"
#include "hw/spec/resize.h"
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
// Where the test puts things in SRAM (and, at the same offsets, in its one input blob).
constexpr uint32_t kRowTaps = 0, kColTaps = 256, kPixels = 1024, kResult = 8192;
// The input: 3x5 pixels of 4 channels; RESIZE reads channels 1 and 2 into 7x9 pixels.
constexpr uint32_t kInH = 3, kInW = 5, kTensorC = 4, kOutH = 7, kOutW = 9, kC = 2;

spec::NpuConfig Config(uint32_t banks) {
  spec::NpuConfig c = ::npu::testing::HandConfig();  // 32 lanes, pipeline 4, 16 B bank words
  c.mutable_sram()->set_banks(banks);
  return c;
}

// Half-pixel bilinear taps for 3 -> 7 rows and 5 -> 9 columns: source position
// (o + 0.5) * in / out - 0.5 clamped to [0, in - 1], its floor and the next, the fraction in
// 1/1024ths.
std::vector<spec::ResizeTap> RowTaps() {
  return {{0, 1, 0}, {0, 1, 146}, {0, 1, 585}, {1, 2, 0}, {1, 2, 439}, {1, 2, 878}, {2, 2, 0}};
}
std::vector<spec::ResizeTap> ColTaps() {
  return {{0, 1, 0},   {0, 1, 341}, {0, 1, 910}, {1, 2, 455}, {2, 3, 0},
          {2, 3, 569}, {3, 4, 114}, {3, 4, 683}, {4, 4, 0}};
}

void PutTaps(Bytes& blob, uint32_t at, const std::vector<spec::ResizeTap>& taps) {
  std::span<uint8_t> bytes(reinterpret_cast<uint8_t*>(blob.data()) + at,
                           taps.size() * spec::kResizeTapBytes);
  for (uint32_t i = 0; i < taps.size(); ++i) spec::WriteResizeTap(bytes, i, taps[i]);
}

// Row taps, column taps and the 4-channel pixels at their SRAM addresses.
Bytes Blob() {
  Bytes blob(kPixels + kInH * kInW * kTensorC);
  PutTaps(blob, kRowTaps, RowTaps());
  PutTaps(blob, kColTaps, ColTaps());
  for (uint32_t i = 0; i < kInH * kInW * kTensorC; ++i) {
    blob[kPixels + i] = int8_t((i * 53 + 7) % 251 - 125);
  }
  return blob;
}

spec::Instruction Resize() {
  spec::ResizeArgs r;
  r.in_addr = kPixels + 1, r.in_h = kInH, r.in_w = kInW, r.channels = kC;
  r.in_pixel_stride = kTensorC;
  r.out_h = kOutH, r.out_w = kOutW, r.out_addr = kResult, r.out_pixel_stride = kC;
  r.row_taps_addr = kRowTaps, r.col_taps_addr = kColTaps, r.zero_point = -5;
  return {spec::Opcode::kResize, 0, 0, r};
}

// Channels 1..2 of the blob's pixels, dense, resized by the spec's semantics.
Bytes Expected(const Bytes& blob) {
  Bytes block;
  for (uint32_t p = 0; p < kInH * kInW; ++p) {
    for (uint32_t c = 1; c <= kC; ++c) block.push_back(blob[kPixels + p * kTensorC + c]);
  }
  std::vector<uint8_t> rows(kOutH * spec::kResizeTapBytes), cols(kOutW * spec::kResizeTapBytes);
  for (uint32_t i = 0; i < kOutH; ++i) spec::WriteResizeTap(rows, i, RowTaps()[i]);
  for (uint32_t i = 0; i < kOutW; ++i) spec::WriteResizeTap(cols, i, ColTaps()[i]);
  Bytes out;
  spec::ComputeResize(std::get<spec::ResizeArgs>(Resize().args), block, rows, cols, out);
  return out;
}

// A program and the instructions it encodes (for the replay).
struct Bench {
  explicit Bench(const spec::NpuConfig& c) : config(c), program(c) {}
  void Add(const spec::Instruction& insn) {
    program.Add(insn);
    insns.push_back(insn);
  }
  StatusOr<platform::RunResult> Run(const std::vector<Bytes>& inputs,
                                    fw::LoadChecks checks = fw::LoadChecks::kAll) {
    platform::RunOptions options;
    options.load_checks = checks;
    return platform::RunBinary(config, program.Sealed(), inputs, options);
  }
  spec::NpuConfig config;
  testing::ProgramBuilder program;
  std::vector<spec::Instruction> insns;
};

// LOAD the blob to SRAM 0, RESIZE once it is there, STORE the result.
StatusOr<platform::RunResult> RunResize(const spec::NpuConfig& config, const Bytes& blob,
                                        spec::Instruction resize,
                                        fw::LoadChecks checks = fw::LoadChecks::kAll) {
  Bench b(config);
  const uint32_t out_bytes = kOutH * kOutW * kC;
  b.program.Input(kIn, blob.size()).Output(kOut, out_bytes);
  b.Add(testing::Load(kIn, 0, blob.size(), 0, kV));
  resize.wait_mask = kL, resize.signal_mask = kS;
  b.Add(resize);
  b.Add(testing::Store(kResult, kOut, out_bytes, kV, 0));
  return b.Run({blob}, checks);
}


TEST(ResizeOp, ResamplesAChannelBlockInItsVectorCycles) {
  const Bytes blob = Blob();
  StatusOr<platform::RunResult> r = RunResize(Config(16), blob, Resize());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outputs.at(0), Expected(blob));
  // The corners are the corner pixels (edge taps, weight 0): channel 1 of pixel 0 and channel 2
  // of the last pixel.
  EXPECT_EQ(r->outputs[0][0], blob[kPixels + 1]);
  EXPECT_EQ(r->outputs[0].back(), blob[kPixels + (kInH * kInW - 1) * kTensorC + 2]);
  // Vector: 4 + ceil(4 * 7*9*2 / 32) = 20. SRAM alone, 16 banks: row taps 3 words, column taps
  // 4, input 15 runs of 2 B (one word each), output 126 B in 8 words: one cycle each, under the
  // vector unit's 20. But the input's 15 runs, 4 bytes apart, fall in 4 words (banks 0-3, four
  // runs on each but the last): a bank delivers one run per cycle, so 3 cycles of conflicts.
  using spec::regs::QueueCounterId;
  EXPECT_EQ(r->counters[QueueCounterId(Queue::kVector, QueueCounter::kBankConflictCycles)], 3u);
  EXPECT_EQ(r->counters[QueueCounterId(Queue::kVector, QueueCounter::kBusyCycles)], 23u);
  EXPECT_EQ(Duration(*r, 1), 23u);
}

TEST(ResizeOp, HeldRowsGiveTheSameBytesInFewerVectorCycles) {
  // The 7 output rows read source rows 0-1 (three), 1-2 (three), 2: 3 blended. Vector: 4 +
  // ceil(2 * (3 + 7) * 9*2 / 32) = 16 where four taps an element took 20; the same 3 cycles of
  // bank conflicts.
  const Bytes blob = Blob();
  spec::Instruction held = Resize();
  ASSERT_EQ(spec::ResizeRowBlends(RowTaps()), 3u);
  std::get<spec::ResizeArgs>(held.args).row_blends = 3;
  StatusOr<platform::RunResult> r = RunResize(Config(16), blob, held);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outputs.at(0), Expected(blob));
  using spec::regs::QueueCounterId;
  EXPECT_EQ(r->counters[QueueCounterId(Queue::kVector, QueueCounter::kBusyCycles)], 19u);
  EXPECT_EQ(Duration(*r, 1), 19u);
}

TEST(ResizeOp, OnOneBankIsBoundBySram) {
  // One bank: 3 + 4 + 15 + 8 = 30 cycles of SRAM.
  StatusOr<platform::RunResult> r = RunResize(Config(1), Blob(), Resize());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(Duration(*r, 1), 30u);
}

// A LOAD of the blob, a 64 KiB LOAD whose bursts collide with the RESIZE's accesses on the one
// bank, the RESIZE, its STORE: the exact replay predicts every start and end.
TEST(ResizeOp, ReplayMatchesThePlatformInstructionByInstruction) {
  const spec::NpuConfig config = Config(1);
  Bench b(config);
  const Bytes blob = Blob();
  b.program.Input(kIn, blob.size()).Output(kOut, kOutH * kOutW * kC);
  b.program.Constant(kBig, std::vector<uint8_t>(64 * 1024, 7));
  b.Add(testing::Load(kIn, 0, blob.size(), 0, kV));
  spec::DmaArgs big;
  big.dram_offset = kBig, big.sram_addr = 256 * 1024, big.run_bytes = 32768, big.n1 = 2;
  big.dram_stride1 = big.sram_stride1 = 32768;
  b.Add({spec::Opcode::kLoad, 0, 0, big});
  spec::Instruction resize = Resize();
  resize.wait_mask = kL, resize.signal_mask = kS;
  b.Add(resize);
  b.Add(testing::Store(kResult, kOut, kOutH * kOutW * kC, kV, 0));
  StatusOr<platform::RunResult> r = b.Run({blob});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outputs.at(0), Expected(blob));
  testing::ExpectReplayMatchesRun(config, b.insns, *r);
  EXPECT_GT(
      r->counters[spec::regs::QueueCounterId(Queue::kVector, QueueCounter::kBankConflictCycles)],
      0u);
}

// The hardware's own checks: the firmware's would refuse some of these first.
std::string FaultOf(const Bytes& blob, const spec::Instruction& resize) {
  StatusOr<platform::RunResult> r =
      RunResize(Config(16), blob, resize, fw::LoadChecks::kLayoutOnly);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.status().message();
}

TEST(ResizeOp, ATapOutsideTheRegionFaults) {
  Bytes blob = Blob();
  std::vector<spec::ResizeTap> cols = ColTaps();
  cols[4].i1 = kInW;  // one column past the region
  PutTaps(blob, kColTaps, cols);
  const std::string fault = FaultOf(blob, Resize());
  EXPECT_NE(fault.find("error 'bad resize tap' at instruction 1"), std::string::npos) << fault;
  EXPECT_NE(fault.find("column tap 4"), std::string::npos) << fault;
}

TEST(ResizeOp, AWeightOverOneFaults) {
  Bytes blob = Blob();
  std::vector<spec::ResizeTap> rows = RowTaps();
  rows[2].w1 = 1025;
  PutTaps(blob, kRowTaps, rows);
  EXPECT_NE(FaultOf(blob, Resize()).find("bad resize tap"), std::string::npos);
}

TEST(ResizeOp, HeldRowsCountingOtherRowsThanTheTapsBlendFault) {
  spec::Instruction resize = Resize();
  std::get<spec::ResizeArgs>(resize.args).row_blends = 2;
  const std::string fault = FaultOf(Blob(), resize);
  EXPECT_NE(fault.find("error 'bad resize tap' at instruction 1"), std::string::npos) << fault;
  EXPECT_NE(fault.find("row_blends 2 but its row taps blend 3 source rows"), std::string::npos)
      << fault;
}

TEST(ResizeOp, OverlappingOutputPixelsAreABadInstruction) {
  spec::Instruction resize = Resize();
  std::get<spec::ResizeArgs>(resize.args).out_pixel_stride = 1;
  EXPECT_NE(FaultOf(Blob(), resize).find("error 'bad instruction' at instruction 1"),
            std::string::npos);
}

TEST(ResizeOp, TapsOutsideSramFault) {
  spec::Instruction resize = Resize();
  std::get<spec::ResizeArgs>(resize.args).row_taps_addr = (1 << 20) - 8;  // 42 bytes of taps
  EXPECT_NE(FaultOf(Blob(), resize).find("SRAM access out of range"), std::string::npos);
}

}  // namespace
}  // namespace npu
