// POOL, ADD and depthwise CONV on the platform: hand-built programs whose outputs must equal the
// ISA semantics and whose unit time must equal spec::IdealCycles on an otherwise idle NPU.
#include <gtest/gtest.h>

#include "tests/common/hand_config.h"
#include "hw/spec/config.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"

namespace npu {
namespace {

using spec::Queue;
using spec::regs::QueueCounter;
using testing::kL;
using testing::kS;
using testing::kV;

constexpr uint32_t kIn = 1 << 20, kOut = 2 << 20;

std::vector<int8_t> Pattern(size_t n, int seed) {
  std::vector<int8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = int8_t((i * 37 + seed * 11) % 251 - 125);
  return v;
}

// LOAD the input, run `op` (waiting for the load), STORE `out_bytes` from `out_addr`.
StatusOr<platform::RunResult> RunVectorOp(const spec::Instruction& op,
                                          const std::vector<int8_t>& in, uint32_t out_addr,
                                          uint32_t out_bytes) {
  const spec::NpuConfig config = ::npu::testing::HandConfig();
  testing::ProgramBuilder program(config);
  program.Input(kIn, in.size()).Output(kOut, out_bytes);
  program.Add(testing::Load(kIn, 0, in.size(), 0, kV));
  spec::Instruction vector_op = op;
  vector_op.wait_mask = kL;
  vector_op.signal_mask = kS;
  program.Add(vector_op);
  program.Add(testing::Store(out_addr, kOut, out_bytes, kV, 0));
  return platform::RunBinary(config, program.Sealed(), {in}, {});
}

TEST(VectorOps, AveragePoolMatchesSemanticsAndTiming) {
  spec::PoolArgs p;
  p.in_h = 9, p.in_w = 7, p.channels = 5;
  p.pad_top = p.pad_left = 1;
  p.kernel_h = p.kernel_w = 3;
  p.stride_h = p.stride_w = 2;
  p.out_h = 5, p.out_w = 4;
  p.out_addr = 4096;
  p.out_pixel_stride = 5;
  p.mode = uint32_t(spec::PoolMode::kAverage);
  p.in_zero_point = 3, p.out_zero_point = -2;
  p.multiplier = 1 << 30, p.shift = 31;
  const std::vector<int8_t> input = Pattern(9 * 7 * 5, 1);
  const spec::Instruction op{spec::Opcode::kPool, 0, 0, p};
  StatusOr<platform::RunResult> r = RunVectorOp(op, input, 4096, 5 * 4 * 5);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::vector<int8_t> expected;
  spec::ComputePool(p, input, expected);
  EXPECT_EQ(r->outputs[0], expected);
  const uint64_t busy =
      r->counters[spec::regs::QueueCounterId(Queue::kVector, QueueCounter::kBusyCycles)];
  EXPECT_EQ(busy, spec::IdealCycles(::npu::testing::HandConfig(), op));
  EXPECT_EQ(busy, 4 + (5 * 4 * 5 * 9 + 31) / 32);  // pipeline + taps / lanes
}

TEST(VectorOps, MaxPoolWithStridedOutput) {
  spec::PoolArgs p;
  p.in_h = p.in_w = 4, p.channels = 3;
  p.kernel_h = p.kernel_w = 2;
  p.stride_h = p.stride_w = 2;
  p.out_h = p.out_w = 2;
  p.out_addr = 4096;
  p.out_pixel_stride = 8;  // leaves 5 bytes between pixels untouched (zero)
  const std::vector<int8_t> input = Pattern(4 * 4 * 3, 2);
  StatusOr<platform::RunResult> r =
      RunVectorOp({spec::Opcode::kPool, 0, 0, p}, input, 4096, 3 * 8 + 3);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::vector<int8_t> dense;
  spec::ComputePool(p, input, dense);
  for (int px = 0; px < 4; ++px) {
    for (int c = 0; c < 8 && px * 8 + c < 27; ++c) {
      const int8_t expected = c < 3 ? dense[px * 3 + c] : 0;
      ASSERT_EQ(r->outputs[0][px * 8 + c], expected) << "pixel " << px << " byte " << c;
    }
  }
}

// A global average pool split over two row strips: a sum, an accumulating sum into the same
// int32 sums, and their mean. The unit computes the whole region's average, and its busy time is
// the three instructions' ideal cycles (the accumulating sum reads its sums back).
TEST(VectorOps, StripSumsAndTheirMeanGiveTheAverage) {
  spec::PoolArgs whole;
  whole.in_h = whole.kernel_h = 7;
  whole.in_w = whole.kernel_w = 6;
  whole.channels = whole.out_pixel_stride = 40;
  whole.out_h = whole.out_w = 1;
  whole.mode = uint32_t(spec::PoolMode::kAverage);
  whole.in_zero_point = 5, whole.out_zero_point = -9;
  whole.multiplier = 1 << 30, whole.shift = 30;
  const std::vector<int8_t> input = Pattern(7 * 6 * 40, 4);
  std::vector<int8_t> expected;
  spec::ComputePool(whole, input, expected);

  constexpr uint32_t kSums = 4096, kMean = 8192;
  spec::PoolArgs top = whole;
  top.mode = uint32_t(spec::PoolMode::kSum);
  top.in_h = top.kernel_h = 3;
  top.out_addr = kSums;
  spec::PoolArgs bottom = top;
  bottom.in_addr = 3 * 6 * 40;
  bottom.in_h = bottom.kernel_h = 4;
  bottom.accumulate = true;
  spec::PoolArgs mean = whole;
  mean.mode = uint32_t(spec::PoolMode::kMeanOfSums);
  mean.in_addr = kSums;
  mean.in_h = mean.in_w = 1;
  mean.out_addr = kMean;
  const std::vector<spec::Instruction> ops = {{spec::Opcode::kPool, kL, 0, top},
                                              {spec::Opcode::kPool, 0, 0, bottom},
                                              {spec::Opcode::kPool, 0, kS, mean}};

  const spec::NpuConfig config = ::npu::testing::HandConfig();
  testing::ProgramBuilder program(config);
  program.Input(kIn, input.size()).Output(kOut, 40);
  program.Add(testing::Load(kIn, 0, input.size(), 0, kV));
  for (const spec::Instruction& op : ops) program.Add(op);
  program.Add(testing::Store(kMean, kOut, 40, kV, 0));
  StatusOr<platform::RunResult> r = platform::RunBinary(config, program.Sealed(), {input}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outputs[0], expected);
  uint64_t ideal = 0;
  for (const spec::Instruction& op : ops) ideal += spec::IdealCycles(config, op);
  EXPECT_EQ(r->counters[spec::regs::QueueCounterId(Queue::kVector, QueueCounter::kBusyCycles)],
            ideal);
  // pipeline + taps / lanes, the sums' one pass per element
  EXPECT_EQ(spec::IdealCycles(config, ops[0]), 4 + (40 * 18 + 31) / 32);
  EXPECT_EQ(spec::IdealCycles(config, ops[2]), 4 + (40 + 31) / 32);
}

TEST(VectorOps, AddMatchesSemanticsAndTiming) {
  spec::EltwiseArgs a;
  a.a_addr = 0, a.b_addr = 1000, a.out_addr = 4096, a.count = 1000;
  a.a_zero_point = 4, a.b_zero_point = -9, a.out_zero_point = 1;
  a.a_multiplier = 21000, a.b_multiplier = 13000, a.shift = 15;
  a.clamp_min = 1;
  const std::vector<int8_t> input = Pattern(2000, 3);
  const spec::Instruction op{spec::Opcode::kEltwise, 0, 0, a};
  StatusOr<platform::RunResult> r = RunVectorOp(op, input, 4096, 1000);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::vector<int8_t> expected;
  spec::ComputeEltwise(a, std::span(input).first(1000), std::span(input).subspan(1000), expected);
  EXPECT_EQ(r->outputs[0], expected);
  EXPECT_EQ(r->counters[spec::regs::QueueCounterId(Queue::kVector, QueueCounter::kBusyCycles)],
            spec::IdealCycles(::npu::testing::HandConfig(), op));
}

// A 3x3 depthwise CONV over 16x16x48, padded: the fold formula's worked example.
spec::ConvArgs Depthwise3x3() {
  spec::ConvArgs c;
  c.in_h = c.in_w = 16;
  c.in_c = c.out_c = 48;
  c.pad_top = c.pad_left = 1;
  c.kernel_h = c.kernel_w = 3;
  c.out_h = c.out_w = 16;
  c.wt_addr = 64 * 1024;
  c.depthwise = true;
  return c;
}

TEST(VectorOps, DepthwiseConvTakesItsFoldFormula) {
  spec::NpuConfig config = ::npu::testing::HandConfig();  // 32 x 32 weight-stationary
  const spec::ConvArgs c = Depthwise3x3();
  // K = 9 taps on 32 rows: one fold per 32 channels, 2 folds streaming T = 256 pixels, + fill
  // and drain 2*32 + 32 - 2 = 94. The array alone: 2 * max(256, 32) + 94 = 606. Its operands
  // stream from 16 banks of 16 bytes: the first fold reads the 9 x 32 weight block (32 words)
  // and per pixel 9 taps of 32 channels (9 * 2 words): 32 + 256 * 18 = 4640 words, 290 cycles of
  // the banks, longer than its slot; the second (16 channels) 16 + 256 * 9 = 2320, 145 cycles.
  ASSERT_EQ(spec::ConvArrayCycles(config, c), 606u);
  ASSERT_EQ(spec::ConvComputeCycles(config, c), 94u + 290 + 256);
  testing::ProgramBuilder program(config);
  program.Add({spec::Opcode::kConv, 0, 0, c});
  StatusOr<platform::RunResult> r = platform::RunBinary(config, program.Sealed(), {}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->counters[spec::regs::QueueCounterId(Queue::kCompute, QueueCounter::kBusyCycles)],
            640u);
  // The 34 cycles the first fold outlasted its slot are the compute queue's SRAM-bound cycles.
  EXPECT_EQ(
      r->counters[spec::regs::QueueCounterId(Queue::kCompute, QueueCounter::kSramBoundCycles)],
      290u - 256);
  EXPECT_EQ(r->counters[spec::regs::kMacs], 16u * 16 * 48 * 9);
}

// The same CONV with 3 depthwise row groups: 3 pixels a step, the groups' windows read once
// (tests/spec/operand_stream_test.cc counts them): 94 + 170 + 96 cycles instead of 640, the
// first fold still bank-bound; the same MACs (results: network_e2e_test's row-group case).
TEST(VectorOps, RowGroupsTakeTheirFoldFormula) {
  spec::NpuConfig config = ::npu::testing::HandConfig();
  config.mutable_mac()->set_row_groups(3);
  ASSERT_TRUE(spec::Validate(config).ok());
  const spec::ConvArgs c = Depthwise3x3();
  ASSERT_EQ(spec::ConvComputeCycles(config, c), 94u + 170 + 96);
  testing::ProgramBuilder program(config);
  program.Add({spec::Opcode::kConv, 0, 0, c});
  StatusOr<platform::RunResult> r = platform::RunBinary(config, program.Sealed(), {}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->counters[spec::regs::QueueCounterId(Queue::kCompute, QueueCounter::kBusyCycles)],
            94u + 170 + 96);
  EXPECT_EQ(
      r->counters[spec::regs::QueueCounterId(Queue::kCompute, QueueCounter::kSramBoundCycles)],
      170u - 96);
  EXPECT_EQ(r->counters[spec::regs::kMacs], 16u * 16 * 48 * 9);
}

}  // namespace
}  // namespace npu
