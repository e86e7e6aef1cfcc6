// Export of one IR node as an ONNX NodeProto of a given opset: the inverse of import's
// normalisation (Clip bounds and, from opset 13, Squeeze/Unsqueeze axes go back to constant
// inputs), refusing what the opset cannot express.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "compiler/ir/graph.h"
#include "compiler/onnx/proto.h"
#include "hw/spec/status.h"

namespace npu::compiler::onnx_detail {

struct ExportContext {
  pb::GraphProto* graph = nullptr;
  int64_t opset = 13;
  std::set<std::string> names;  // every tensor name in use, so added initializers stay unique
};

// Appends `node` (whose kind has an ONNX op type) to ctx.graph, with any initializers it needs.
Status ExportNode(const ir::Node& node, ExportContext& ctx);

}  // namespace npu::compiler::onnx_detail
