// CandidateCost: the fast replay of a stream alone, tokens assigned, remembered per config and
// stream.
#include "compiler/tiling/candidate_cost.h"

#include <gtest/gtest.h>

#include "compiler/schedule/dependencies.h"
#include "hw/spec/config.h"
#include "tests/compiler/hand_insns.h"

namespace npu::compiler::testing {
namespace {

// Load two operands, a CONV on them, its ACT, a store: tokens between every step.
std::vector<spec::Instruction> Stream(uint32_t load_bytes) {
  return {Load(0, load_bytes), Load(8192, 64, 4096), Conv(0, 64, 8192, 0), Act(0, 16384, 20000),
          Store(20000, 1)};
}

CostEstimate DirectReplay(const spec::NpuConfig& c, std::vector<spec::Instruction> insns,
                          bool exact = false) {
  AssignDependencies(insns);
  const StatusOr<CostEstimate> cost = PredictCost(c, insns, nullptr, {.exact = exact});
  EXPECT_TRUE(cost.ok());
  return *cost;
}

void ExpectSame(const CostEstimate& a, const CostEstimate& b) {
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.dram_read_bytes, b.dram_read_bytes);
  EXPECT_EQ(a.dram_write_bytes, b.dram_write_bytes);
  EXPECT_EQ(a.macs, b.macs);
  EXPECT_EQ(a.busy_cycles, b.busy_cycles);
}

TEST(CandidateCost, IsTheFastReplayWithTokensAssignedFirstAndLaterCallsToo) {
  const spec::NpuConfig c = spec::DefaultConfig();
  const CostEstimate direct = DirectReplay(c, Stream(4096));
  ExpectSame(CandidateCost(c, Stream(4096)), direct);
  ExpectSame(CandidateCost(c, Stream(4096)), direct);  // remembered
  EXPECT_GT(direct.cycles, 0u);
  // The exact replay is remembered apart from the fast one.
  const CostEstimate exact = DirectReplay(c, Stream(4096), /*exact=*/true);
  for (int call = 0; call < 2; ++call) ExpectSame(CandidateCost(c, Stream(4096), true), exact);
}

TEST(CandidateCost, AnotherConfigOrAnotherFieldIsAnotherReplay) {
  const spec::NpuConfig c = spec::DefaultConfig();
  spec::NpuConfig slow = c;
  slow.mutable_dram()->set_bytes_per_cycle(c.dram().bytes_per_cycle() / 4);
  const CostEstimate fast = CandidateCost(c, Stream(60000));
  const CostEstimate on_slow = CandidateCost(slow, Stream(60000));
  ExpectSame(on_slow, DirectReplay(slow, Stream(60000)));
  EXPECT_GT(on_slow.cycles, fast.cycles);
  const CostEstimate longer = CandidateCost(c, Stream(60001));  // one field differs
  ExpectSame(longer, DirectReplay(c, Stream(60001)));
  EXPECT_EQ(longer.dram_read_bytes, fast.dram_read_bytes + 1);
}

}  // namespace
}  // namespace npu::compiler::testing
