// The integer reference interpreter: executes a quantised graph (docs/quantized-ir.md) bit
// exactly, on the host. It is the oracle the NPU virtual platform is checked against, so it is
// written from the contract alone: the only code it shares with the hardware model is the rounding
// in hw/spec/arith.h and spec::RoundDiv.
//
//   StatusOr<std::vector<std::vector<int8_t>>> out = InterpretQuantized(q_graph, {input_i8});
//
// Values are dense int8 buffers in the tensor's stored order (NHWC for 4-D activations, batch 1).
// host_io.h converts float inputs and outputs with the graph's quantisation parameters.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::qinterp {

struct QInterpretOptions {
  // Called with every node output as soon as it is computed (per-layer accuracy, debugging).
  std::function<void(const ir::Tensor&, std::span<const int8_t>)> observe;
};

// Runs `graph` on `inputs` (one buffer per graph input, in order, NumElements(shape) values each)
// and returns the graph outputs in order. Fails without running anything if the graph does not
// pass CheckQuantizedGraph or an input has the wrong size.
StatusOr<std::vector<std::vector<int8_t>>> InterpretQuantized(
    const ir::Graph& graph, const std::vector<std::vector<int8_t>>& inputs,
    const QInterpretOptions& options = {});

}  // namespace npu::compiler::qinterp
