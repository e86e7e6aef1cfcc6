// The order in which to import an ONNX graph's nodes, and the checks that make it exist: every
// name read is defined once (by a node, an initializer or a graph input) and there is no cycle.
// ONNX requires topologically sorted nodes, but import does not rely on it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "compiler/onnx/proto.h"
#include "hw/spec/status.h"

namespace npu::compiler::onnx_detail {

// Indices into graph.node() with every node after the producers of its inputs, otherwise in
// file order. `defined` holds the graph input and initializer names.
StatusOr<std::vector<int>> OrderNodes(const pb::GraphProto& graph,
                                      const std::set<std::string>& defined);

}  // namespace npu::compiler::onnx_detail
