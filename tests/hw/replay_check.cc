#include "tests/hw/replay_check.h"

#include <gtest/gtest.h>

#include "compiler/cost/cost_model.h"
#include "tests/common/program_builder.h"

namespace npu::testing {

VectorOpRun RunVectorOp(const spec::NpuConfig& config, const std::vector<int8_t>& blob,
                        spec::Instruction insn, uint32_t result_addr, uint32_t out_bytes,
                        fw::LoadChecks checks) {
  ProgramBuilder program(config);
  program.Input(kVectorOpIn, blob.size()).Output(kVectorOpOut, out_bytes);
  insn.wait_mask = kL, insn.signal_mask = kS;
  VectorOpRun run;
  run.insns = {Load(kVectorOpIn, 0, uint32_t(blob.size()), 0, kV), insn,
               Store(result_addr, kVectorOpOut, out_bytes, kV, 0)};
  for (const spec::Instruction& i : run.insns) program.Add(i);
  platform::RunOptions options;
  options.load_checks = checks;
  run.result = platform::RunBinary(config, program.Sealed(), {blob}, options);
  return run;
}

uint64_t Duration(const platform::RunResult& run, size_t insn) {
  return run.records.at(insn).end - run.records.at(insn).start;
}

void ExpectReplayMatchesRun(const spec::NpuConfig& config,
                            const std::vector<spec::Instruction>& insns,
                            const platform::RunResult& run) {
  std::vector<spec::InsnRecord> timeline;
  const StatusOr<compiler::CostEstimate> cost = compiler::PredictCost(config, insns, &timeline);
  ASSERT_TRUE(cost.ok()) << cost.status().message();
  ASSERT_EQ(timeline.size(), run.records.size());
  for (size_t i = 0; i < timeline.size(); ++i) {
    EXPECT_EQ(timeline[i].start, run.records[i].start) << "#" << i;
    EXPECT_EQ(timeline[i].end, run.records[i].end) << "#" << i;
  }
  EXPECT_EQ(cost->cycles, run.counters[spec::regs::kCycles]);
}

}  // namespace npu::testing
