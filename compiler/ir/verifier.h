// The verifier: run after import and after every pass. A failure is a bug in whoever produced the
// graph (importer or pass), reported with the node and tensor names.
#pragma once

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::ir {

struct VerifyOptions {
  // Also require every tensor to have a known element type and shape (after shape inference).
  bool require_types = true;
};

// Checks: node inputs and outputs belong to the graph; producer and user links agree; nodes are
// in topological order (so acyclic); graph outputs exist; constants hold exactly
// NumElements(shape) elements; with require_types, every tensor has a dtype and, when it feeds or
// leaves a node, a shape.
Status Verify(const Graph& graph, const VerifyOptions& options = {});

}  // namespace npu::compiler::ir
