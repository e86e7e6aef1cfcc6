// Network test helpers.
#include "tests/network/network_test_util.h"

#include <gtest/gtest.h>

#include <random>

#include "compiler/qinterp/qinterp.h"
#include "compiler/schedule/token_check.h"
#include "compiler/sim/functional_executor.h"
#include "hw/spec/config.h"
#include "tests/common/memory_bus.h"

namespace npu::compiler::testing {

spec::NpuConfig Config(const std::vector<std::string>& overrides) {
  StatusOr<spec::NpuConfig> config = spec::ResolveConfig("", overrides);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return config.ok() ? *config : spec::DefaultConfig();
}

std::vector<NamedConfig> SweepConfigs() {
  return {{"default", Config({})},
          {"tiny", Config({"mac.rows=4", "mac.cols=4", "mac.acc_buffer_bytes=512",
                           "sram.size_bytes=4096", "sram.banks=2", "sram.bank_width_bytes=8"})},
          {"os8", Config({"mac.rows=8", "mac.cols=8", "mac.dataflow=OUTPUT_STATIONARY",
                          "sram.size_bytes=32768"})},
          {"big", Config({"mac.rows=64", "mac.cols=64", "sram.size_bytes=4194304"})}};
}

std::vector<std::vector<int8_t>> RandomInputs(const ir::Graph& graph, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::vector<int8_t>> inputs;
  for (const ir::Tensor* t : graph.inputs()) {
    std::vector<int8_t>& in = inputs.emplace_back(ir::NumElements(t->shape()));
    for (int8_t& v : in) v = static_cast<int8_t>(rng() % 256 - 128);
  }
  return inputs;
}

void ExpectSameBytes(const ir::Graph& whole, const ir::Graph& rewritten,
                     std::initializer_list<uint32_t> seeds) {
  for (uint32_t seed : seeds) {
    const auto inputs = RandomInputs(whole, seed);
    auto a = qinterp::InterpretQuantized(whole, inputs);
    auto b = qinterp::InterpretQuantized(rewritten, inputs);
    ASSERT_TRUE(a.ok() && b.ok()) << (a.ok() ? b.status().message() : a.status().message());
    EXPECT_EQ(*a, *b) << "seed " << seed;
  }
}

namespace {

// Runs `compiled` on the functional executor in stream order and `random_orders` token-legal
// random orders; EXPECTs every output byte to equal `expected`'s.
void ExpectRunsMatch(const spec::NpuConfig& config, const CompiledModel& compiled,
                     const std::vector<std::vector<int8_t>>& inputs,
                     const std::vector<std::vector<int8_t>>& expected, int random_orders) {
  EXPECT_TRUE(CheckTokenProtocol(compiled.instructions).ok());
  for (int order = 0; order <= random_orders; ++order) {
    sim::FunctionalExecutor executor(config, npu::testing::RunCpuOpInMemory);
    EXPECT_TRUE(executor.Load(compiled.program).ok());
    EXPECT_TRUE(executor.WriteInputs(inputs).ok());
    const Status run = executor.Run(static_cast<uint32_t>(order * 7919));
    EXPECT_TRUE(run.ok()) << run.message();
    const std::vector<std::vector<int8_t>> outputs = executor.ReadOutputs();
    EXPECT_EQ(outputs.size(), expected.size());
    for (size_t o = 0; o < outputs.size() && o < expected.size(); ++o) {
      size_t mismatches = 0, first = 0;
      for (size_t i = 0; i < outputs[o].size(); ++i) {
        if (outputs[o][i] != expected[o][i] && mismatches++ == 0) first = i;
      }
      EXPECT_EQ(mismatches, 0u) << "output " << o << " first mismatch at byte " << first
                                << ", order seed " << order * 7919;
    }
  }
}

}  // namespace

CompiledModel ExpectBitExact(const ir::Graph& graph, const spec::NpuConfig& config,
                             int random_orders, const CompileOptions& options) {
  StatusOr<CompiledModel> compiled = CompileModel(config, graph, options);
  EXPECT_TRUE(compiled.ok()) << compiled.status().message();
  if (!compiled.ok()) return {};
  const std::vector<std::vector<int8_t>> inputs = RandomInputs(graph, 17);
  StatusOr<std::vector<std::vector<int8_t>>> expected = qinterp::InterpretQuantized(graph, inputs);
  EXPECT_TRUE(expected.ok()) << expected.status().message();
  if (!expected.ok()) return {};
  ExpectRunsMatch(config, *compiled, inputs, *expected, random_orders);
  return *std::move(compiled);
}

const ModelLayer& LayerNamed(const CompiledModel& m, const std::string& name) {
  for (const ModelLayer& l : m.layers) {
    if (l.name == name) return l;
  }
  ADD_FAILURE() << "no layer " << name;
  return m.layers.front();
}

CompiledModel ExpectNetworkBitExact(const Network& network, const spec::NpuConfig& config,
                                    const std::vector<std::vector<int8_t>>& inputs,
                                    const std::vector<std::vector<int8_t>>& expected,
                                    int random_orders) {
  StatusOr<CompiledModel> compiled = CompileNetwork(config, network);
  EXPECT_TRUE(compiled.ok()) << compiled.status().message();
  if (!compiled.ok()) return {};
  ExpectRunsMatch(config, *compiled, inputs, expected, random_orders);
  return *std::move(compiled);
}

}  // namespace npu::compiler::testing
