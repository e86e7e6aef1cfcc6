// The inputs npu_quant calibrates and evaluates with: the user's .npy files, or the built-in
// deterministic inputs (workloads::MakeInputs with consecutive seeds from kCalibrationSeed or
// kEvaluationSeed, so calibration and evaluation never share an input).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::tools {

using Samples = std::vector<std::vector<compiler::interp::HostTensor>>;

// One sample per file for a single-input graph: a float32 array of the input's shape, or a stack
// [S, d1, ...] of S samples for an input [1, d1, ...]. Fails naming the file, the input and both
// shapes.
StatusOr<Samples> SamplesFromNpy(const compiler::ir::Graph& graph,
                                 const std::vector<std::string>& files);

// `count` samples from MakeInputs(graph, first_seed + i).
Samples SeededSamples(const compiler::ir::Graph& graph, uint32_t first_seed, int count);

}  // namespace npu::tools
