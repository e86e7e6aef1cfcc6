// RunOptions::max_cycles: a run still going at its cycle budget ends with ResourceExhausted
// saying where the queues stand; within the budget it finishes as without one.
#include <gtest/gtest.h>

#include "compiler/compile.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "platform/run.h"
#include "workloads/synthetic_conv.h"

namespace npu {
namespace {

struct SmallRun {
  std::string binary;
  std::vector<int8_t> input;
};

SmallRun CompileSmallConv() {
  workloads::SyntheticConvSpec s;
  s.in_h = s.in_w = 8;
  s.in_c = s.out_c = 16;
  s.kernel_h = s.kernel_w = 3;
  workloads::SetSamePadding(s);
  StatusOr<compiler::ConvLayer> layer = workloads::MakeSyntheticConv(s);
  EXPECT_TRUE(layer.ok()) << layer.status().message();
  StatusOr<spec::Program> program = compiler::CompileConvLayer(spec::DefaultConfig(), *layer);
  EXPECT_TRUE(program.ok()) << program.status().message();
  return {spec::SealProgram(*program), workloads::MakeInputTensor(layer->InputBytes(), 3)};
}

TEST(CycleBudget, ARunPastItsBudgetEndsWithResourceExhausted) {
  const SmallRun r = CompileSmallConv();
  platform::RunOptions options;
  options.max_cycles = 100;  // not even the load fits
  StatusOr<platform::RunResult> run =
      platform::RunBinary(spec::DefaultConfig(), r.binary, {r.input}, options);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(run.status().message().find("within its budget of 100 cycles"), std::string::npos)
      << run.status().message();
}

TEST(CycleBudget, ARunWithinItsBudgetFinishes) {
  const SmallRun r = CompileSmallConv();
  platform::RunOptions options;
  options.max_cycles = 10'000'000;
  StatusOr<platform::RunResult> run =
      platform::RunBinary(spec::DefaultConfig(), r.binary, {r.input}, options);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_GT(run->cycles, 0u);
  EXPECT_LT(run->cycles, options.max_cycles);
}

}  // namespace
}  // namespace npu
