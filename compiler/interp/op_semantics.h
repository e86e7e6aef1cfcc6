// What every IR op computes (docs/ir.md): its type rule (output dtypes, shapes and layouts from
// the inputs' types, and the values of small shape operands when a rule needs them) and its float
// kernel. Shape inference, the interpreter and constant folding all go through these two entry
// points, so they cannot disagree.
#pragma once

#include <span>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::interp {

// The output types of `node` given its inputs (a TensorRef per node input; omitted optional
// inputs are !present()). Rules that depend on a value (Reshape's shape, Pad's pads) need it
// to be known (has_value()), else they fail. Errors name the node.
StatusOr<std::vector<TensorType>> InferOutputTypes(const ir::Node& node,
                                                   std::span<const TensorRef> inputs);

// Computes `node` on `inputs` (all with values) into `outputs`, already allocated with the types
// InferOutputTypes gave. Errors (unsupported attribute values, quantised ops) name the node.
Status RunKernel(const ir::Node& node, std::span<const TensorRef> inputs,
                 std::span<HostTensor> outputs);

}  // namespace npu::compiler::interp
