// ONNX import driver: parse, check the whole model is supported, then build the graph.
#include "compiler/onnx/onnx_import.h"

#include <fmt/format.h>

#include <climits>
#include <fstream>
#include <set>
#include <sstream>

#include "compiler/ir/verifier.h"
#include "compiler/onnx/declared_types.h"
#include "compiler/onnx/layouts.h"
#include "compiler/onnx/node_import.h"
#include "compiler/onnx/node_order.h"
#include "compiler/onnx/op_support.h"
#include "compiler/onnx/proto.h"
#include "compiler/onnx/tensor_proto.h"
#include "hw/spec/file_io.h"
#include "hw/spec/utf8.h"

namespace npu::compiler {
namespace {

using namespace onnx_detail;  // NOLINT: this file drives the onnx_detail steps

// Everything declared about tensor types: value_info and graph outputs. Graph outputs must be
// tensors; other value_info (sequences, maps) is ignored, as no supported op produces it.
Status ReadDeclarations(const pb::GraphProto& g, ImportContext& ctx) {
  for (const pb::ValueInfoProto& vi : g.value_info()) {
    StatusOr<DeclaredType> t = ReadDeclaredType(vi);
    if (t.ok()) ctx.declared[vi.name()] = *t;
  }
  for (const pb::ValueInfoProto& vi : g.output()) {
    NPU_ASSIGN_OR_RETURN(DeclaredType t, ReadDeclaredType(vi));
    ctx.declared[vi.name()] = t;
  }
  return Status::Ok();
}

Status AddInitializers(const pb::GraphProto& g, ImportContext& ctx) {
  for (const pb::TensorProto& init : g.initializer()) {
    const std::string what = fmt::format("initializer '{}'", init.name());
    if (init.name().empty()) return InvalidArgument("an initializer has no name");
    if (ctx.graph.FindTensor(init.name()) != nullptr) {
      return InvalidArgument(fmt::format("{} is given twice", what));
    }
    NPU_ASSIGN_OR_RETURN(ConstantData data, ReadTensorProto(init, what));
    NPU_TRY(AddConstant(init.name(), std::move(data), ctx).status());
  }
  return Status::Ok();
}

// An input the tools can hold: no dimension of 0 (an empty tensor has nothing to compute) and
// at most 2^31 elements, checked before anything is computed on it.
Status CheckInputSize(const std::string& name, const ir::Shape& shape) {
  int64_t elements = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 1) {
      return InvalidArgument(
          fmt::format("graph input '{}' {}: dimension {} is {}; every dimension "
                      "of an input must be at least 1",
                      name, ir::ShapeText(shape), d, shape[d]));
    }
    if (shape[d] > (int64_t{1} << 31) / elements) {
      return InvalidArgument(
          fmt::format("graph input '{}' {}: more than 2^31 elements", name, ir::ShapeText(shape)));
    }
    elements *= shape[d];
  }
  return Status::Ok();
}

// Graph inputs that are not initializers (older exporters list initializers as inputs too; those
// stay constants, checked against the declared type).
Status AddInputs(const pb::GraphProto& g, const ImportOptions& options, ImportContext& ctx) {
  std::set<std::string> names;
  for (const pb::ValueInfoProto& vi : g.input()) {
    if (vi.name().empty()) return InvalidArgument("a graph input has no name");
    NPU_ASSIGN_OR_RETURN(DeclaredType t, ReadDeclaredType(vi));
    if (const ir::Tensor* init = ctx.graph.FindTensor(vi.name())) {
      NPU_TRY(CheckDeclared(fmt::format("initializer '{}'", vi.name()), t, init->dtype(),
                            init->shape()));
      continue;
    }
    if (!names.insert(vi.name()).second) {
      return InvalidArgument(fmt::format("graph input '{}' is listed twice", vi.name()));
    }
    const std::optional<ir::DType> dtype = DTypeFromOnnx(t.elem_type);
    if (!dtype) {
      return Unimplemented(fmt::format("graph input '{}' has element type {}", vi.name(),
                                       OnnxTypeName(t.elem_type)));
    }
    NPU_ASSIGN_OR_RETURN(ir::Shape shape, ResolveInputShape(vi.name(), t, options, ctx.symbols));
    NPU_TRY(CheckInputSize(vi.name(), shape));
    ctx.graph.AddInput(vi.name(), *dtype, shape, ir::Layout::kNone);
  }
  for (const auto& [name, shape] : options.input_shapes) {
    if (!names.count(name)) {
      return InvalidArgument(
          fmt::format("input_shapes names '{}', which is not a graph input; "
                      "the inputs are: {}",
                      name, fmt::join(names, ", ")));
    }
  }
  return Status::Ok();
}

Status AddNodes(const pb::GraphProto& g, ImportContext& ctx) {
  std::set<std::string> defined;
  for (const ir::Tensor* t : ctx.graph.tensors()) defined.insert(t->name());
  NPU_ASSIGN_OR_RETURN(std::vector<int> order, OrderNodes(g, defined));
  for (int i : order) NPU_TRY(ImportNode(g.node(i), i, ctx));
  return Status::Ok();
}

void AddOutputs(const pb::GraphProto& g, ImportContext& ctx) {
  for (const pb::ValueInfoProto& vi : g.output()) {
    ir::Tensor* t = ctx.graph.FindTensor(vi.name());
    NPU_CHECK(t != nullptr);  // OrderNodes checked every graph output is defined
    ctx.graph.AddOutput(t);
  }
}

// Every name that can reach a binary (graph, node, value and initializer names) is UTF-8 text:
// the binary's string fields must be, or it does not parse.
Status CheckNamesAreUtf8(const pb::GraphProto& g) {
  std::vector<std::string_view> names = {g.name()};
  for (const pb::NodeProto& node : g.node()) {
    names.push_back(node.name());
    names.insert(names.end(), node.input().begin(), node.input().end());
    names.insert(names.end(), node.output().begin(), node.output().end());
  }
  for (const pb::TensorProto& t : g.initializer()) names.push_back(t.name());
  for (const auto* infos : {&g.input(), &g.output(), &g.value_info()}) {
    for (const pb::ValueInfoProto& vi : *infos) names.push_back(vi.name());
  }
  for (std::string_view name : names) {
    if (!spec::IsValidUtf8(name)) {
      return InvalidArgument(fmt::format("the name '{}' is not UTF-8 text", name));
    }
  }
  return Status::Ok();
}

// 1. Whole-model checks: names are text, every node supported (one error listing all), input
// counts.
// 2. Declarations, initializers, graph inputs (static shapes), nodes in dependency order,
//    graph outputs.
// 3. Layouts; constants only read by folded inputs (Clip bounds, axes) are dropped.
StatusOr<ir::Graph> ImportGraph(const pb::GraphProto& g, const OpsetMap& opsets,
                                const ImportOptions& options) {
  std::set<std::string> constants;
  for (const pb::TensorProto& init : g.initializer()) constants.insert(init.name());
  for (const pb::NodeProto& node : g.node()) {
    if (node.op_type() == "Constant" && node.output_size() > 0) constants.insert(node.output(0));
  }
  NPU_TRY(CheckNamesAreUtf8(g));
  NPU_TRY(CheckSupported(g, opsets, constants));
  NPU_TRY(CheckArity(g, opsets.at("")));

  ir::Graph graph(g.name().empty() ? "graph" : g.name());
  ImportContext ctx(graph, opsets.at(""));
  NPU_TRY(ReadDeclarations(g, ctx));
  NPU_TRY(AddInitializers(g, ctx));
  NPU_TRY(AddInputs(g, options, ctx));
  NPU_TRY(AddNodes(g, ctx));
  AddOutputs(g, ctx);

  AssignLayouts(graph, ctx.ranks);
  graph.RemoveUnusedTensors();
  if (Status s = ir::Verify(graph, {.require_types = false}); !s.ok()) {
    return Internal("ONNX import built an invalid graph (an importer bug): " + s.message());
  }
  return graph;
}

}  // namespace

StatusOr<ir::Graph> ImportOnnxBytes(std::string_view bytes, const ImportOptions& options) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return ResourceExhausted(
        fmt::format("the model has {} bytes; protobuf reads at most 2 GiB", bytes.size()));
  }
  pb::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return InvalidArgument(
        fmt::format("{} bytes that do not parse as an ONNX ModelProto (a "
                    "truncated file, or not an ONNX model)",
                    bytes.size()));
  }
  if (!model.has_graph()) {
    return InvalidArgument(
        fmt::format("{} bytes that parse as protobuf but hold no ONNX graph "
                    "(not an ONNX model)",
                    bytes.size()));
  }
  NPU_ASSIGN_OR_RETURN(OpsetMap opsets, ReadOpsets(model));
  return ImportGraph(model.graph(), opsets, options);
}

StatusOr<ir::Graph> ImportOnnxFile(const std::string& path, const ImportOptions& options) {
  NPU_ASSIGN_OR_RETURN(const std::string bytes, spec::ReadWholeFile(path, "ONNX model"));
  StatusOr<ir::Graph> graph = ImportOnnxBytes(bytes, options);
  if (!graph.ok()) return graph.status().WithContext(path);
  return graph;
}

}  // namespace npu::compiler
