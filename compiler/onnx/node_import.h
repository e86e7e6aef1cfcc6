// Import of one ONNX node into the IR graph: Constant nodes become constant tensors; other nodes
// become IR nodes with their attributes normalised (inputs that are attributes in the IR folded
// in, defaults written out), their output typed from value_info and its rank recorded.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "compiler/ir/graph.h"
#include "compiler/onnx/declared_types.h"
#include "compiler/onnx/proto.h"
#include "compiler/onnx/ranks.h"
#include "compiler/onnx/tensor_proto.h"
#include "hw/spec/status.h"

namespace npu::compiler::onnx_detail {

struct ImportContext {
  ImportContext(ir::Graph& g, int64_t default_opset) : graph(g), opset(default_opset) {}
  ir::Graph& graph;
  int64_t opset;                                 // of the default domain
  std::map<std::string, DeclaredType> declared;  // value_info and graph outputs, by name
  SymbolTable symbols;                           // bound while resolving graph inputs
  RankMap ranks;
};

// Adds a constant tensor named `name` holding `data`, after checking it against a declared type.
StatusOr<ir::Tensor*> AddConstant(const std::string& name, ConstantData data, ImportContext& ctx);

// Imports graph.node(index); its inputs must already be in ctx.graph (see OrderNodes).
Status ImportNode(const pb::NodeProto& node, int index, ImportContext& ctx);

}  // namespace npu::compiler::onnx_detail
