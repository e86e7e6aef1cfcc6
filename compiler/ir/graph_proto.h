// The graph IR as bytes and back (compiler/ir/graph.proto): a faithful copy, so that a graph read
// back prints (ir::PrintGraph) and computes exactly as the one written. Binaries compiled with
// --with-reference carry their quantised graph this way, for the integer reference to check a
// run of the binary alone.
#pragma once

#include <string>
#include <string_view>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::ir {

std::string SerializeGraph(const Graph& graph);

// Fails, naming the tensor or node, on bytes that do not describe a graph: unparsable, an unknown
// op, element type or layout, a negative dim, constant data of the wrong size, a reused name, an
// operand that does not exist yet (nodes must be in topological order). Never aborts; the result
// is not yet verified (ir::Verify, or the consumer's own checker).
StatusOr<Graph> ParseGraph(std::string_view bytes);

}  // namespace npu::compiler::ir
