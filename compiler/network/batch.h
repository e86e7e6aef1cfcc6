// A batch of N inputs through one program (docs/network-compiler.md, "Batch"): the quantised
// graph of one inference is replicated N times inside one graph. The input [N, ...] is sliced per
// image (contiguous slices: views of the input buffer) and the outputs concatenated along the
// batch (each copy writes its range of the output buffer), so the program runs N inferences back
// to back; the weights are the same constants, loaded by every copy.
#pragma once

#include <cstdint>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// `quantized` (inputs and outputs of batch 1) for `batch` inferences: inputs and outputs keep
// their names with a first dim of `batch`; copy i of every node and tensor is named "<name>#i".
// The graph itself for batch 1.
StatusOr<ir::Graph> ReplicateBatch(const ir::Graph& quantized, int64_t batch);

}  // namespace npu::compiler
