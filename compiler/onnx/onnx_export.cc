// ONNX export driver.
#include "compiler/onnx/onnx_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

#include "compiler/onnx/node_export.h"
#include "compiler/onnx/op_support.h"
#include "compiler/onnx/proto.h"
#include "compiler/onnx/tensor_proto.h"

namespace npu::compiler {
namespace {

using namespace onnx_detail;  // NOLINT: this file drives the onnx_detail steps

// The ONNX IR version that goes with each opset (onnx/helper.py, VERSION_TABLE).
int64_t IrVersionFor(int64_t opset) { return opset <= 11 ? 6 : opset <= 14 ? 7 : 8; }

// The NHWC activation a layout-aware op (docs/ir.md) reads or writes, or null. Other ops ignore
// the tag: their tensors are written as stored, which ONNX reads the same way.
const ir::Tensor* NhwcOperand(const ir::Node& n) {
  static constexpr ir::OpKind kLayoutAware[] = {
      ir::OpKind::kConv,         ir::OpKind::kQLinearConv, ir::OpKind::kBatchNormalization,
      ir::OpKind::kMaxPool,      ir::OpKind::kAveragePool, ir::OpKind::kGlobalAveragePool,
      ir::OpKind::kConvTranspose};
  if (std::find(std::begin(kLayoutAware), std::end(kLayoutAware), n.kind()) ==
      std::end(kLayoutAware)) {
    return nullptr;
  }
  for (const auto* list : {&n.inputs(), &n.outputs()}) {
    for (const ir::Tensor* t : *list) {
      if (t != nullptr && t->layout() == ir::Layout::kNHWC) return t;
    }
  }
  return nullptr;
}

// One error listing everything ONNX export cannot write, or ok.
Status CheckExportable(const ir::Graph& graph) {
  std::vector<std::string> problems;
  for (const ir::Node* n : graph.nodes()) {
    if (!OnnxOpType(n->kind())) {
      problems.push_back(
          fmt::format("node '{}' is a {}, which is no ONNX op", n->name(), ir::OpName(n->kind())));
    }
  }
  for (const ir::Node* n : graph.nodes()) {
    if (const ir::Tensor* t = NhwcOperand(*n)) {
      problems.push_back(
          fmt::format("node '{}' ({}) works on NHWC %{}, but ONNX's {} is NCHW "
                      "(export before the layout pass)",
                      n->name(), ir::OpName(n->kind()), t->name(), ir::OpName(n->kind())));
    }
  }
  for (const ir::Tensor* t : graph.tensors()) {
    if (!t->quant().empty()) {
      problems.push_back(
          fmt::format("%{} carries quantisation parameters, which ONNX tensors "
                      "cannot (write QDQ ops instead)",
                      t->name()));
    }
  }
  for (const auto* list : {&graph.inputs(), &graph.outputs()}) {
    for (const ir::Tensor* t : *list) {
      if (t->dtype() == ir::DType::kUnknown) {
        problems.push_back(
            fmt::format("graph input/output %{} has no element type (run shape "
                        "inference first)",
                        t->name()));
      }
    }
  }
  if (problems.empty()) return Status::Ok();
  return FailedPrecondition(fmt::format("graph '{}' cannot be exported to ONNX:\n  {}",
                                        graph.name(), fmt::join(problems, "\n  ")));
}

// A tensor's declared type. An empty IR shape is written as no shape: the IR cannot tell a
// scalar from a shape not yet inferred, and import reads "no shape" back as empty.
void WriteValueInfo(const ir::Tensor& t, pb::ValueInfoProto* vi) {
  vi->set_name(t.name());
  pb::TypeProto::Tensor* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(OnnxFromDType(t.dtype()));
  if (t.shape().empty()) return;
  pb::TensorShapeProto* shape = tt->mutable_shape();
  for (int64_t d : t.shape()) shape->add_dim()->set_dim_value(d);
}

// 1. Inputs, constants as initializers, nodes, outputs.
// 2. value_info for every other node output whose element type is known.
Status WriteGraph(const ir::Graph& graph, ExportContext& ctx) {
  pb::GraphProto* g = ctx.graph;
  g->set_name(graph.name());
  for (const ir::Tensor* t : graph.tensors()) ctx.names.insert(t->name());
  for (const ir::Tensor* t : graph.inputs()) WriteValueInfo(*t, g->add_input());
  for (const ir::Tensor* t : graph.tensors()) {
    if (t->is_constant()) WriteTensorProto(*t, g->add_initializer());
  }
  for (const ir::Node* n : graph.nodes()) NPU_TRY(ExportNode(*n, ctx));
  for (const ir::Tensor* t : graph.outputs()) WriteValueInfo(*t, g->add_output());
  for (const ir::Node* n : graph.nodes()) {
    for (const ir::Tensor* t : n->outputs()) {
      if (t->dtype() != ir::DType::kUnknown && !graph.IsGraphOutput(t)) {
        WriteValueInfo(*t, g->add_value_info());
      }
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::string> ExportOnnx(const ir::Graph& graph, int64_t opset) {
  if (opset < kMinOpset || opset > kMaxOpset) {
    return InvalidArgument(
        fmt::format("ONNX export writes opsets {} to {}, not {}", kMinOpset, kMaxOpset, opset));
  }
  NPU_TRY(CheckExportable(graph));
  pb::ModelProto model;
  model.set_ir_version(IrVersionFor(opset));
  model.set_producer_name("npu-compiler");
  pb::OperatorSetIdProto* id = model.add_opset_import();
  id->set_domain("");
  id->set_version(opset);
  ExportContext ctx{model.mutable_graph(), opset, {}};
  NPU_TRY(WriteGraph(graph, ctx));
  std::string bytes;
  if (!model.SerializeToString(&bytes)) {
    return Internal(fmt::format("graph '{}' did not serialise as ONNX", graph.name()));
  }
  return bytes;
}

}  // namespace npu::compiler
