// Partitioning and the CPU fallback, executed functionally (the firmware's CPU kernels over a
// byte array, tests/common/memory_bus.h) against the integer reference: every op the firmware has
// a kernel for, forced onto the control core one kind at a time and all at once, on every sweep
// config; the program's steps (NPU runs cut at each CPU op, tokens balanced within each run);
// forcing by node name; pool windows as large as the IR allows; and the errors with the fallback
// off.
#include <gtest/gtest.h>

#include <algorithm>

#include "compiler/schedule/token_check.h"
#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

// conv -> max pool -> conv -> add (residual) -> average pool -> global pool -> flatten -> gemm.
ir::Graph Chain() {
  QuantGraphBuilder b("chain", 5);
  ir::Tensor* x = b.Input("x", 9, 7, 6);
  x = b.Conv(x, "conv_a",
             {.out_c = 8, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}, .activation = "relu"});
  x = b.MaxPool(x, "pool_max", {.kh = 2, .kw = 2, .stride_h = 1, .stride_w = 1});
  ir::Tensor* y = b.Conv(x, "conv_b", {.out_c = 8, .kh = 1, .kw = 1});
  x = b.Add(x, y, "residual", /*relu=*/true);
  x = b.AvgPool(x, "pool_avg",
                {.kh = 3,
                 .kw = 2,
                 .stride_h = 2,
                 .stride_w = 1,
                 .pads = {1, 0, 1, 0},
                 .count_include_pad = true});
  x = b.GlobalAvgPool(x, "pool_global");
  x = b.Flatten(x, "flat");
  return b.Finish({b.Gemm(x, "fc", 5, /*relu=*/true)});
}

CompileOptions OnCpu(std::vector<std::string> ops) {
  CompileOptions o;
  o.cpu_ops = std::move(ops);
  return o;
}

TEST(CpuFallback, EveryForcedOpKindRunsOnTheCpuBitExact) {
  const std::vector<std::vector<std::string>> cases = {
      {"fused_conv"},
      {"max_pool"},
      {"fused_add"},
      {"average_pool"},
      {"global_average_pool"},
      {"gemm"},
      {"fused_conv", "max_pool", "fused_add", "average_pool", "global_average_pool", "gemm"}};
  const ir::Graph g = Chain();
  for (const std::vector<std::string>& ops : cases) {
    const std::string which = ops.size() == 1 ? ops[0] : std::string("all");
    SCOPED_TRACE(which);
    for (const NamedConfig& c : SweepConfigs()) {
      SCOPED_TRACE(c.name);
      const CompiledModel m = ExpectBitExact(g, c.config, 1, OnCpu(ops));
      // A CPU layer's op is its kernel (the quantised IR op); an NPU layer's is what the NPU
      // runs ("conv2d", "add", ...), which matches a kernel name only for the pools.
      for (const ModelLayer& l : m.layers) {
        const bool forced = std::find(ops.begin(), ops.end(), l.op) != ops.end();
        EXPECT_EQ(l.on_cpu, forced) << l.name << " (" << l.op << ")";
        if (l.on_cpu) {
          EXPECT_EQ(l.instruction_count, 0u) << l.name;
        }
      }
    }
  }
}

TEST(CpuFallback, StepsAreNpuRunsCutAtEachCpuOpWithTheirOwnTokens) {
  const CompiledModel m = ExpectBitExact(Chain(), Config({}), 0, OnCpu({"fused_add", "gemm"}));
  // conv_a pool_max conv_b | residual | pool_avg pool_global | fc
  ASSERT_EQ(m.steps.size(), 4u);
  EXPECT_TRUE(m.steps[0].has_npu());
  EXPECT_EQ(m.steps[1].cpu().kernel(), "fused_add");
  EXPECT_TRUE(m.steps[2].has_npu());
  EXPECT_EQ(m.steps[3].cpu().kernel(), "gemm");
  uint32_t next = 0;
  for (const spec::Step& step : m.steps) {
    if (!step.has_npu()) continue;
    EXPECT_EQ(step.npu().first_instruction(), next);
    next += step.npu().instruction_count();
    const auto first = m.instructions.begin() + step.npu().first_instruction();
    const std::vector<spec::Instruction> run(first, first + step.npu().instruction_count());
    const Status tokens = CheckTokenProtocol(run);
    EXPECT_TRUE(tokens.ok()) << tokens.message();
  }
  EXPECT_EQ(next, m.instructions.size());
  for (const ModelLayer& l : m.layers) {
    EXPECT_TRUE(m.steps[l.step].has_cpu() == l.on_cpu) << l.name;
  }
  // A CPU op reads and writes DRAM, so its operands are never kept on chip.
  for (const BufferPlacement& b : m.memory.buffers) {
    if (b.name == "residual" || b.name == "fc" || b.name == "flat") {
      EXPECT_FALSE(b.on_chip) << b.name;
    }
  }
  // Its gemm carries its weights, bias and requantisation.
  const spec::CpuOp& fc = m.steps[3].cpu();
  ASSERT_EQ(fc.inputs_size(), 3);
  EXPECT_EQ(fc.inputs(1).dtype(), spec::INT8);
  EXPECT_EQ(fc.inputs(2).dtype(), spec::INT32);
  EXPECT_EQ(m.layers.back().macs, 8u * 5u);
}

TEST(CpuFallback, ANodeCanBeForcedByName) {
  const CompiledModel m = ExpectBitExact(Chain(), Config({}), 0, OnCpu({"conv_b"}));
  for (const ModelLayer& l : m.layers) EXPECT_EQ(l.on_cpu, l.name == "conv_b") << l.name;
}

TEST(CpuFallback, WithoutItEveryOpThatNeedsTheCpuIsListed) {
  CompileOptions o = OnCpu({"max_pool", "gemm"});
  o.cpu_fallback = false;
  const StatusOr<CompiledModel> m = CompileModel(Config({}), Chain(), o);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().kind(), ErrorKind::kUnimplemented);
  const std::string text = m.status().message();
  EXPECT_NE(text.find("2 node(s)"), std::string::npos) << text;
  EXPECT_NE(text.find("'pool_max' (max_pool)"), std::string::npos) << text;
  EXPECT_NE(text.find("'fc' (gemm)"), std::string::npos) << text;
  EXPECT_NE(text.find("fallback is off"), std::string::npos) << text;
}

// The firmware's checks once refused a pool window of more than 65535 taps, which the quantised IR
// allows (the kernel sums a window in int64), and window values of 65536, the IR's bound.
TEST(CpuFallback, PoolWindowsAsLargeAsTheIrAllowsRunOnTheCpu) {
  QuantGraphBuilder b("large_windows", 5);
  ir::Tensor* x = b.Input("x", 256, 256, 2);
  ir::Tensor* avg = b.AvgPool(x, "pool_avg", {.kh = 256, .kw = 256, .stride_h = 1, .stride_w = 1});
  ir::Tensor* max =
      b.MaxPool(x, "pool_max", {.kh = 2, .kw = 2, .stride_h = 65536, .stride_w = 65536});
  const ir::Graph g = b.Finish({avg, max});
  const CompiledModel m = ExpectBitExact(g, Config({}), 0, OnCpu({"average_pool", "max_pool"}));
  EXPECT_EQ(
      std::count_if(m.layers.begin(), m.layers.end(), [](const ModelLayer& l) { return l.on_cpu; }),
      2);
}

}  // namespace
}  // namespace npu::compiler::testing
