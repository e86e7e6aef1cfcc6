// Shared by the network tests: configs by overrides, seeded inputs, and the functional check of
// a compiled network against the integer reference.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/network/compile_model.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler::testing {

spec::NpuConfig Config(const std::vector<std::string>& overrides);

// Named configs the functional tests sweep: the default; a 4x4 array with a 4 KiB SRAM and a
// tiny accumulator (every operand tiled, nothing fits on chip); an 8x8 output-stationary array
// with 32 KiB; a 64x64 array with a large SRAM.
struct NamedConfig {
  std::string name;
  spec::NpuConfig config;
};
std::vector<NamedConfig> SweepConfigs();

// The compiled layer named `name` (ADD_FAILURE and the first layer if there is none).
const ModelLayer& LayerNamed(const CompiledModel& m, const std::string& name);

// One seeded int8 buffer per graph input.
std::vector<std::vector<int8_t>> RandomInputs(const ir::Graph& graph, uint32_t seed);

// EXPECTs the integer reference to give graph `rewritten` the bytes of `whole`, on each seed's
// inputs (a rewrite that should be exact: row strips, channel groups).
void ExpectSameBytes(const ir::Graph& whole, const ir::Graph& rewritten,
                     std::initializer_list<uint32_t> seeds);

// Compiles `graph` for `config` (EXPECTs success), checks the token protocol, runs it on the
// functional executor in stream order and in `random_orders` token-legal random orders, and
// EXPECTs every output byte to equal the integer reference's. Returns the compiled model.
CompiledModel ExpectBitExact(const ir::Graph& graph, const spec::NpuConfig& config,
                             int random_orders = 1, const CompileOptions& options = {});

// The same for a network built by hand (hand_network.h), against `expected` (one per output).
CompiledModel ExpectNetworkBitExact(const Network& network, const spec::NpuConfig& config,
                                    const std::vector<std::vector<int8_t>>& inputs,
                                    const std::vector<std::vector<int8_t>>& expected,
                                    int random_orders = 1);

}  // namespace npu::compiler::testing
