// DWCONV on the platform: a hand-built program whose output equals a depthwise CONV followed by
// ACT (the ISA's definition), whose vector cycles follow the depthwise datapath's passes, which
// the compiler's exact replay times instruction by instruction, and which faults on an NPU
// without the datapath. And an average POOL, which sums its windows on the same datapath.
#include <gtest/gtest.h>

#include "tests/common/hand_config.h"
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
using Bytes = std::vector<int8_t>;

// SRAM (and blob) layout: parameter records, weights, input pixels; the result further on.
constexpr uint32_t kParams = 0, kWeights = 1024, kPixels = 2048, kResult = 8192;
// 9x10 pixels of 40 channels, a 3x3 kernel at stride 2 with padding 1: 5x5 outputs.
constexpr uint32_t kInH = 9, kInW = 10, kC = 40, kOutH = 5, kOutW = 5;

spec::NpuConfig Config(uint32_t taps) {
  spec::NpuConfig c = ::npu::testing::HandConfig();  // 32 lanes, pipeline 4, 16 banks of 16 B
  c.mutable_act()->set_depthwise_taps(taps);
  return c;
}

spec::DwConvArgs Args() {
  spec::DwConvArgs d;
  d.in_addr = kPixels, d.in_h = kInH, d.in_w = kInW, d.channels = kC;
  d.pad_top = d.pad_left = 1, d.pad_value = -3;
  d.kernel_h = d.kernel_w = 3, d.stride_h = d.stride_w = 2;
  d.out_h = kOutH, d.out_w = kOutW;
  d.wt_addr = kWeights, d.param_addr = kParams;
  d.out_addr = kResult, d.out_pixel_stride = kC;
  d.out_zero_point = -2, d.clamp_min = -100, d.clamp_max = 110;
  return d;
}

Bytes Blob() {
  Bytes blob(kPixels + kInH * kInW * kC);
  std::span<uint8_t> params(reinterpret_cast<uint8_t*>(blob.data()), kC * spec::kActParamBytes);
  for (uint32_t c = 0; c < kC; ++c) {
    spec::WriteActParams(params, c, {int32_t(c * 37) - 700, int32_t(1u << 30) + int32_t(c * 9999),
                                     int32_t(8 + c % 3)});
  }
  for (uint32_t i = 0; i < kC * 9; ++i) blob[kWeights + i] = int8_t((i * 29 + 3) % 255 - 127);
  for (uint32_t i = 0; i < kInH * kInW * kC; ++i) blob[kPixels + i] = int8_t((i * 53 + 7) % 251 - 125);
  return blob;
}

// The ISA's definition: a depthwise CONV into an accumulator tile, then ACT.
Bytes Expected(const Bytes& blob) {
  const spec::DwConvArgs d = Args();
  const spec::ConvArgs conv = spec::DwConvAsConv(d);
  std::vector<int32_t> acc(spec::ConvAccEntries(conv));
  spec::ComputeConv(conv, {blob.data() + kPixels, kInH * kInW * kC},
                    {blob.data() + kWeights, kC * 9}, acc);
  Bytes out;
  const auto* params = reinterpret_cast<const uint8_t*>(blob.data());
  EXPECT_EQ(spec::ComputeAct(spec::DwConvAsAct(d), acc, {params, kC * spec::kActParamBytes}, {},
                             out),
            spec::regs::ErrorCode::kNone);
  return out;
}

// LOAD the blob to SRAM 0, DWCONV once it is there, STORE the result.
testing::VectorOpRun RunDwConv(const spec::NpuConfig& config,
                             fw::LoadChecks checks = fw::LoadChecks::kAll) {
  return testing::RunVectorOp(config, Blob(), {spec::Opcode::kDwConv, 0, 0, Args()}, kResult,
                              kOutH * kOutW * kC, checks);
}


TEST(DwConvOp, ComputesADepthwiseConvAndItsActInOnePass) {
  const testing::VectorOpRun run = RunDwConv(Config(9));
  ASSERT_TRUE(run.result.ok()) << run.result.status().message();
  EXPECT_EQ(run.result->outputs.at(0), Expected(Blob()));
  // Vector: 4 + ceil(5*5*40 elements * 1 pass / 32 lanes) = 4 + 32 = 36. SRAM alone: records
  // 480 B (30 words), weights 360 B (23), input 3600 B (225), output 1000 B (63) on 16 banks:
  // 2 + 2 + 15 + 4 = 23 cycles, under the lanes' 36.
  EXPECT_EQ(Duration(*run.result, 1), 36u);
  const spec::Instruction& dw = run.insns[1];
  EXPECT_EQ(spec::IdealCycles(Config(9), dw), 36u);
  EXPECT_EQ(spec::VectorLaneOps(dw), 1000u);
  // The events price 9 MACs an element on the vector unit, none on the array.
  const spec::UnitEvents& ev = run.result->records.at(1).events;
  EXPECT_EQ(ev.vector_macs, 9000u);
  EXPECT_EQ(ev.macs, 0u);
  EXPECT_EQ(ev.acc_read_bytes, 0u);
}

// With use_table the results go through the table right after the records, in the same pass:
// the bytes of ACT with that table, the cycles of the DWCONV without one.
TEST(DwConvOp, AppliesTheTableAfterItsRecordsInTheSamePass) {
  Bytes blob = Blob();
  const uint64_t table = spec::DwConvTableAddr(kParams, kC);
  ASSERT_LE(table + spec::kLutEntries, uint64_t{kWeights});  // between records and weights
  for (uint32_t i = 0; i < spec::kLutEntries; ++i) blob[table + i] = int8_t((i * 97 + 11) % 256 - 128);
  spec::DwConvArgs dw = Args();
  dw.use_table = true;
  EXPECT_EQ(spec::DwConvParamBytes(dw), kC * spec::kActParamBytes + spec::kLutEntries);
  const testing::VectorOpRun run = testing::RunVectorOp(
      Config(9), blob, {spec::Opcode::kDwConv, 0, 0, dw}, kResult, kOutH * kOutW * kC);
  ASSERT_TRUE(run.result.ok()) << run.result.status().message();
  Bytes expected = Expected(blob);
  for (int8_t& v : expected) v = blob[table + uint8_t(int(v) + 128)];
  EXPECT_EQ(run.result->outputs.at(0), expected);
  // The table's 256 bytes add 16 words (1 cycle) to the SRAM's 23: still under the lanes' 36.
  EXPECT_EQ(Duration(*run.result, 1), 36u);
  testing::ExpectReplayMatchesRun(Config(9), run.insns, *run.result);
}

// Channels 8..31 of the 40-channel pixels, read with in_pixel_stride 40 (a channel block of a
// wider tensor, as a concatenation's prefix kept on chip): the bytes of the same DWCONV over a
// dense copy of them, timed as the replay times them.
TEST(DwConvOp, ReadsAChannelBlockOfWiderPixelsWithItsPixelStride) {
  constexpr uint32_t kFirst = 8, kBlock = 24;
  spec::DwConvArgs strided = Args();
  strided.in_addr = kPixels + kFirst, strided.channels = kBlock, strided.in_pixel_stride = kC;
  strided.out_pixel_stride = kBlock;
  spec::DwConvArgs dense = strided;
  dense.in_pixel_stride = 0;
  EXPECT_EQ(spec::DwConvInputSpan(strided), (kInH * kInW - 1) * kC + kBlock);
  EXPECT_EQ(spec::DwConvInputSpan(dense), kInH * kInW * kBlock);
  const Bytes blob = Blob();
  Bytes block;
  for (uint32_t p = 0; p < kInH * kInW; ++p) {
    for (uint32_t c = 0; c < kBlock; ++c) block.push_back(blob[kPixels + p * kC + kFirst + c]);
  }
  Bytes expected;
  const auto* params = reinterpret_cast<const uint8_t*>(blob.data());
  ASSERT_EQ(spec::ComputeDwConv(dense, block, {blob.data() + kWeights, kBlock * 9},
                                {params, kBlock * spec::kActParamBytes}, expected),
            spec::regs::ErrorCode::kNone);
  const uint32_t out_bytes = kOutH * kOutW * kBlock;
  const testing::VectorOpRun run = testing::RunVectorOp(
      Config(9), blob, {spec::Opcode::kDwConv, 0, 0, strided}, kResult, out_bytes);
  ASSERT_TRUE(run.result.ok()) << run.result.status().message();
  EXPECT_EQ(run.result->outputs.at(0), expected);
  EXPECT_NE(expected, Bytes(out_bytes, 0));
  testing::ExpectReplayMatchesRun(Config(9), run.insns, *run.result);
  // A stride below the channels would overlap pixels: the unit refuses it.
  strided.in_pixel_stride = kBlock - 1;
  EXPECT_NE(spec::CheckDwConv(strided).find("in_pixel_stride 23 < channels 24"),
            std::string::npos);
}

TEST(DwConvOp, FewerTapsTakeMorePasses) {
  // 3 taps a cycle: ceil(9 / 3) = 3 passes, 4 + ceil(3000 / 32) = 98 cycles; the same bytes.
  const testing::VectorOpRun run = RunDwConv(Config(3));
  ASSERT_TRUE(run.result.ok()) << run.result.status().message();
  EXPECT_EQ(run.result->outputs.at(0), Expected(Blob()));
  EXPECT_EQ(Duration(*run.result, 1), 98u);
  EXPECT_EQ(spec::DwConvPasses(Config(4), std::get<spec::DwConvArgs>(run.insns[1].args)), 3u);
}

TEST(DwConvOp, ReplayMatchesThePlatformInstructionByInstruction) {
  const spec::NpuConfig config = Config(9);
  const testing::VectorOpRun run = RunDwConv(config);
  ASSERT_TRUE(run.result.ok()) << run.result.status().message();
  testing::ExpectReplayMatchesRun(config, run.insns, *run.result);
}

TEST(DwConvOp, AnNpuWithoutTheDatapathFaults) {
  const testing::VectorOpRun run = RunDwConv(Config(0), fw::LoadChecks::kLayoutOnly);
  ASSERT_FALSE(run.result.ok());
  const std::string fault(run.result.status().message());
  EXPECT_NE(fault.find("error 'bad instruction' at instruction 1"), std::string::npos) << fault;
  EXPECT_NE(fault.find("no depthwise datapath"), std::string::npos) << fault;
}

// A global average pool over the 9x10 pixels of 40 channels: the same bytes with or without the
// tap datapath, ceil(90 / taps) passes an output element with it.
spec::PoolArgs GlobalAveragePool() {
  spec::PoolArgs p;
  p.in_addr = kPixels, p.in_h = kInH, p.in_w = kInW, p.channels = kC;
  p.kernel_h = kInH, p.kernel_w = kInW, p.stride_h = kInH, p.stride_w = kInW;
  p.out_h = p.out_w = 1, p.out_addr = kResult, p.out_pixel_stride = kC;
  p.mode = uint32_t(spec::PoolMode::kAverage);
  p.in_zero_point = 3, p.out_zero_point = -1;
  p.multiplier = int32_t(1u << 30) / 90, p.shift = 30;
  return p;
}

spec::Instruction PoolInsn(spec::PoolMode mode) {
  spec::PoolArgs p = GlobalAveragePool();
  p.mode = uint32_t(mode);
  return {spec::Opcode::kPool, 0, 0, p};
}

TEST(DwConvOp, AnAveragePoolSumsItsWindowsOnTheTapDatapath) {
  const spec::Instruction avg = PoolInsn(spec::PoolMode::kAverage);
  const testing::VectorOpRun run = testing::RunVectorOp(Config(9), Blob(), avg, kResult, kC);
  ASSERT_TRUE(run.result.ok()) << run.result.status().message();
  const Bytes blob = Blob();
  Bytes expected;
  spec::ComputePool(GlobalAveragePool(), {blob.data() + kPixels, kInH * kInW * kC}, expected);
  EXPECT_EQ(run.result->outputs.at(0), expected);
  // Nine taps: 40 x ceil(90 / 9) = 400 lane cycles, 4 + ceil(400 / 32 lanes) = 17, over the
  // SRAM's 15 + 1 (3600 input bytes, 40 output bytes on 16 banks of 16 B).
  EXPECT_EQ(Duration(*run.result, 1), 17u);
  EXPECT_EQ(spec::PoolPasses(Config(9), GlobalAveragePool()), 10u);
  EXPECT_EQ(run.result->records.at(1).events.vector_ops, 3600u);  // a lane operation a tap
  testing::ExpectReplayMatchesRun(Config(9), run.insns, *run.result);
  // A tap a cycle without the datapath: 4 + ceil(40 x 90 / 32) = 117; four taps 40 x 23.
  EXPECT_EQ(spec::IdealCycles(Config(0), avg), 117u);
  EXPECT_EQ(spec::IdealCycles(Config(4), avg), 4u + 29);
  // Max pools compare, which the adder tree does not: a tap a cycle.
  EXPECT_EQ(spec::IdealCycles(Config(9), PoolInsn(spec::PoolMode::kMax)), 117u);
}

}  // namespace
}  // namespace npu
