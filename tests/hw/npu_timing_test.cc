// The NPU's timing, measured through the counters the firmware reads: a CONV takes exactly the
// documented fold formula for each dataflow, and a load that does not depend on compute overlaps
// it, while one that does is serialised.
#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/timing_model.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"

namespace npu {
namespace {

using spec::Queue;
using spec::regs::QueueCounter;
using testing::kC;
using testing::kL;

uint64_t Q(const fw::Counters& c, Queue q, QueueCounter k) {
  return c[spec::regs::QueueCounterId(q, k)];
}

spec::ConvArgs Conv3x3(uint32_t out_hw, uint32_t out_c, uint32_t in_c) {
  spec::ConvArgs conv;
  conv.in_addr = 0;
  conv.in_h = conv.in_w = out_hw + 2;
  conv.in_c = in_c;
  conv.kernel_h = conv.kernel_w = 3;
  conv.out_h = conv.out_w = out_hw;
  conv.out_c = out_c;
  conv.wt_addr = 512 * 1024;
  conv.acc_addr = 0;
  return conv;
}

fw::Counters RunOrDie(const spec::NpuConfig& config, const std::string& binary) {
  StatusOr<platform::RunResult> r = platform::RunBinary(config, binary, {}, {});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? r->counters : fw::Counters{};
}

void ExpectConvTakesFormula(spec::Dataflow dataflow, uint64_t expected_cycles) {
  spec::NpuConfig config = spec::DefaultConfig();
  config.mutable_mac()->set_rows(4);
  config.mutable_mac()->set_cols(8);
  config.mutable_mac()->set_dataflow(dataflow);
  spec::ConvArgs conv = Conv3x3(5, 10, 2);  // M = 25, N = 10, K = 18
  conv.out_w = 6;                           // M = 30
  conv.in_w = 8;
  ASSERT_EQ(spec::ConvComputeCycles(config, conv), expected_cycles);
  const fw::Counters c = RunOrDie(
      config, testing::ProgramBuilder(config).Add({spec::Opcode::kConv, 0, 0, conv}).Sealed());
  EXPECT_EQ(Q(c, Queue::kCompute, QueueCounter::kBusyCycles), expected_cycles);
  EXPECT_EQ(c[spec::regs::kMacs], 30u * 10 * 18);
  EXPECT_EQ(c[spec::regs::kInstructions], 1u);
}

TEST(NpuTiming, WeightStationaryConvTakesFoldFormula) {
  // ceil(18/4) * ceil(10/8) = 10 folds. The 8-column chunk: 4 K-chunks of 4 rows streaming
  // M = 30 (slots of max(30, R = 4)), and the last of 2 rows in two row groups (the default's 3,
  // as many as 4 rows hold) streaming 15. The 2-column chunk in the default's two column groups
  // (of 4 columns): 4 folds of 15, and the last fold in both groups, ceil(30 / 4) = 8. Fill and
  // drain 2*4 + 8 - 2.
  ExpectConvTakesFormula(spec::WEIGHT_STATIONARY, 4 * 30 + 15 + 4 * 15 + 8 + 14);
}

TEST(NpuTiming, OutputStationaryConvTakesFoldFormula) {
  // ceil(30/4) * ceil(10/8) = 16 folds of max(K = 18, R = 4) cycles, + 2*4 + 8 - 2.
  ExpectConvTakesFormula(spec::OUTPUT_STATIONARY, 302);
}

// A 128 KiB load and a ~4400-cycle CONV; `dependent` makes the CONV wait for the load's token.
fw::Counters LoadAndConv(bool dependent, uint64_t& load_ideal, uint64_t& conv_cycles) {
  const spec::NpuConfig config = spec::DefaultConfig();
  spec::DmaArgs load;
  load.dram_offset = 1 << 20;
  load.sram_addr = 256 * 1024;
  load.run_bytes = 32768;
  load.n1 = 4;
  load.dram_stride1 = load.sram_stride1 = 32768;
  const spec::ConvArgs conv = Conv3x3(20, 32, 32);
  load_ideal =
      spec::DmaIdealCycles(config, spec::Opcode::kLoad, spec::SplitIntoBursts(config, load));
  conv_cycles = spec::ConvComputeCycles(config, conv);
  testing::ProgramBuilder program(config);
  program.Constant(1 << 20, std::vector<uint8_t>(128 * 1024, 7));
  program.Add({spec::Opcode::kLoad, 0, uint8_t(dependent ? kC : 0), load});
  program.Add({spec::Opcode::kConv, uint8_t(dependent ? kL : 0), 0, conv});
  return RunOrDie(config, program.Sealed());
}

TEST(NpuTiming, IndependentLoadOverlapsCompute) {
  uint64_t load = 0, conv = 0;
  const fw::Counters c = LoadAndConv(false, load, conv);
  EXPECT_EQ(Q(c, Queue::kLoad, QueueCounter::kBusyCycles), load);
  EXPECT_EQ(Q(c, Queue::kCompute, QueueCounter::kBusyCycles), conv);
  EXPECT_EQ(Q(c, Queue::kCompute, QueueCounter::kWaitInputCycles), 0u);
  // Both start after the one fetch; the run ends with the longer of the two.
  EXPECT_EQ(c[spec::regs::kCycles], c[spec::regs::kFetchCycles] + std::max(load, conv));
  EXPECT_LT(c[spec::regs::kCycles], c[spec::regs::kFetchCycles] + load + conv);
}

TEST(NpuTiming, DependentComputeWaitsForTheLoad) {
  uint64_t load = 0, conv = 0;
  const fw::Counters c = LoadAndConv(true, load, conv);
  EXPECT_EQ(Q(c, Queue::kCompute, QueueCounter::kWaitInputCycles), load);
  EXPECT_EQ(c[spec::regs::kCycles], c[spec::regs::kFetchCycles] + load + conv);
  EXPECT_EQ(c[spec::regs::kDramReadBytes], 128u * 1024 + 2 * spec::kInsnBytes);
}

}  // namespace
}  // namespace npu
