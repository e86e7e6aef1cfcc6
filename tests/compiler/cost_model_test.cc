// The replaying cost model against the timing formulas, instruction by instruction.
#include "compiler/cost/cost_model.h"
#include "compiler/cost/dram_bus.h"

#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"

namespace npu::compiler {
namespace {

constexpr uint8_t kL = 1, kC = 2;

spec::Instruction Load(uint32_t sram, uint32_t bytes, uint8_t wait = 0, uint8_t signal = 0) {
  return {spec::Opcode::kLoad, wait, signal, spec::DmaArgs{0, sram, bytes}};
}
spec::Instruction Conv(uint8_t wait = 0, uint8_t signal = 0) {
  spec::ConvArgs c;
  c.in_h = c.in_w = 4, c.in_c = 64, c.kernel_h = c.kernel_w = 3, c.pad_top = c.pad_left = 1;
  c.out_h = c.out_w = 4, c.out_c = 32, c.wt_addr = 4096;
  return {spec::Opcode::kConv, wait, signal, c};
}

// The command processor's fetch of the first batch, before anything can start.
uint64_t FirstFetch(const spec::NpuConfig& c, uint64_t instructions) {
  return spec::DramTransferCycles(
      c, std::min<uint64_t>(instructions, c.cmd().fetch_batch()) * spec::kInsnBytes);
}

TEST(CostModel, SingleConvIsFetchPlusComputeCycles) {
  const spec::NpuConfig c = spec::DefaultConfig();
  const spec::Instruction conv = Conv();
  const StatusOr<CostEstimate> cost = PredictCost(c, {conv});
  ASSERT_TRUE(cost.ok());
  const auto& args = std::get<spec::ConvArgs>(conv.args);
  EXPECT_EQ(InstructionCycles(c, conv), spec::ConvComputeCycles(c, args));
  EXPECT_EQ(cost->cycles, FirstFetch(c, 1) + spec::ConvComputeCycles(c, args));
  EXPECT_EQ(cost->macs, spec::ConvMacs(args));
  EXPECT_EQ(cost->busy_cycles[1], spec::ConvComputeCycles(c, args));
}

TEST(CostModel, LoadUsesTheDmaFormula) {
  const spec::NpuConfig c = spec::DefaultConfig();
  const spec::Instruction load = Load(0, 5000);
  const uint64_t expected = spec::DmaIdealCycles(
      c, spec::Opcode::kLoad, spec::SplitIntoBursts(c, std::get<spec::DmaArgs>(load.args)));
  EXPECT_EQ(InstructionCycles(c, load), expected);
  const StatusOr<CostEstimate> cost = PredictCost(c, {load});
  ASSERT_TRUE(cost.ok());
  EXPECT_EQ(cost->cycles, FirstFetch(c, 1) + expected);
  EXPECT_EQ(cost->dram_read_bytes, 5000u + spec::kInsnBytes);
}

TEST(CostModel, IndependentQueuesOverlapAndTokensSerialise) {
  const spec::NpuConfig c = spec::DefaultConfig();
  const uint64_t load = InstructionCycles(c, Load(0, 8192));
  const uint64_t conv = InstructionCycles(c, Conv());
  const uint64_t fetch = FirstFetch(c, 2);
  const StatusOr<CostEstimate> parallel = PredictCost(c, {Load(0, 8192), Conv()});
  ASSERT_TRUE(parallel.ok());
  EXPECT_EQ(parallel->cycles, fetch + std::max(load, conv));
  const StatusOr<CostEstimate> serial = PredictCost(c, {Load(0, 8192, 0, kC), Conv(kL)});
  ASSERT_TRUE(serial.ok());
  EXPECT_EQ(serial->cycles, fetch + load + conv);
}

TEST(CostModel, LoadChannelsRunDescriptorsInParallelUpToTheDramBus) {
  const spec::NpuConfig one = *spec::ResolveConfig("", {"dma.load_channels=1"});
  const spec::NpuConfig two = *spec::ResolveConfig("", {"dma.load_channels=2"});
  const std::vector<spec::Instruction> loads = {Load(0, 256), Load(256, 256)};
  const uint64_t t1 = PredictCost(one, loads)->cycles, t2 = PredictCost(two, loads)->cycles;
  EXPECT_LT(t2, t1);  // latency-bound: a second channel overlaps the second request
  const uint64_t bus = spec::DramDataCycles(two, 512);
  EXPECT_GE(t2, FirstFetch(two, 2) + two.dram().latency_cycles() + bus);
}

TEST(CostModel, QueueDepthStallsDispatch) {
  const spec::NpuConfig deep = spec::DefaultConfig();
  const spec::NpuConfig shallow = *spec::ResolveConfig("", {"cmd.queue_depth=1"});
  // Three CONVs, then a long load. With one slot per queue the third CONV cannot dispatch until
  // the second starts, and the load behind it waits in the command processor meanwhile.
  const std::vector<spec::Instruction> s = {Conv(), Conv(), Conv(), Load(0, 200000)};
  const uint64_t conv = InstructionCycles(deep, Conv()), load = InstructionCycles(deep, s[3]);
  ASSERT_GT(load, 3 * conv);
  EXPECT_EQ(PredictCost(deep, s)->cycles, FirstFetch(deep, 4) + load);
  EXPECT_EQ(PredictCost(shallow, s)->cycles, FirstFetch(shallow, 4) + conv + load);
}

TEST(DramBus, AloneATransferRunsAtItsOwnRate) {
  DramBus bus(32);
  EXPECT_EQ(bus.Transfer(100, 3200, 64.0), 200u);  // the bus (32 B/cycle) is the limit
  DramBus slow_channel(32);
  EXPECT_EQ(slow_channel.Transfer(0, 800, 8.0), 100u);
}

TEST(DramBus, ConcurrentTransfersShareTheBus) {
  DramBus bus(32);
  const uint64_t first = bus.Transfer(0, 3200, 32.0);
  const uint64_t second = bus.Transfer(0, 3200, 32.0);
  EXPECT_EQ(first, 100u);
  EXPECT_EQ(second, 200u);  // waits for the capacity the first took
  // Booked later but earlier in time: uses the idle capacity before the others.
  DramBus gap(32);
  EXPECT_EQ(gap.Transfer(1000, 320, 32.0), 1010u);
  EXPECT_EQ(gap.Transfer(0, 320, 32.0), 10u);
}

TEST(CostModel, MissingTokenIsAnError) {
  const StatusOr<CostEstimate> cost = PredictCost(spec::DefaultConfig(), {Conv(kL)});
  ASSERT_FALSE(cost.ok());
  EXPECT_EQ(cost.status().kind(), ErrorKind::kFailedPrecondition);
  EXPECT_NE(cost.status().message().find("instruction #0"), std::string::npos);
}

}  // namespace
}  // namespace npu::compiler
