// Node export, opset by opset.
#include "compiler/onnx/node_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "compiler/onnx/attribute_proto.h"
#include "compiler/onnx/op_support.h"
#include "compiler/onnx/tensor_proto.h"

namespace npu::compiler::onnx_detail {
namespace {

using ir::OpKind;

std::string Where(const ir::Node& node) {
  return fmt::format("node '{}' ({})", node.name(), ir::OpName(node.kind()));
}

// A new initializer holding `values`, named after `base` but unique; returns its name.
template <class T>
std::string AddInitializer(const std::string& base, ir::Shape shape, const std::vector<T>& values,
                           ExportContext& ctx) {
  std::string name = base;
  for (int i = 1; ctx.names.count(name); ++i) name = fmt::format("{}_{}", base, i);
  ctx.names.insert(name);
  pb::TensorProto* t = ctx.graph->add_initializer();
  t->set_name(name);
  t->set_data_type(OnnxFromDType(ir::DTypeOf<T>()));
  for (int64_t d : shape) t->add_dims(d);
  t->set_raw_data(values.data(), values.size() * sizeof(T));
  return name;
}

// Attributes that become inputs at this opset: moved from `attrs` to `inputs` (names; "" for
// an omitted optional input).
void UnfoldInputs(const ir::Node& node, ir::Attributes& attrs, std::vector<std::string>& inputs,
                  ExportContext& ctx) {
  const std::string& out = node.output(0)->name();
  if (node.kind() == OpKind::kClip) {
    inputs.resize(3);
    for (const auto& [index, name] : {std::pair{1, "min"}, std::pair{2, "max"}}) {
      if (!attrs.Has(name)) continue;
      inputs[index] = AddInitializer<float>(out + "_" + name, {}, {attrs.GetFloat(name, 0)}, ctx);
      attrs.Erase(name);
    }
  }
  const bool axes_input = node.kind() == OpKind::kSqueeze || node.kind() == OpKind::kUnsqueeze ||
                          node.kind() == OpKind::kReduceSum || node.kind() == OpKind::kSplit;
  const char* attr = node.kind() == OpKind::kSplit ? "split" : "axes";
  if (axes_input && ctx.opset >= 13 && attrs.Has(attr)) {
    const std::vector<int64_t> axes = attrs.GetInts(attr);
    inputs.resize(2);
    inputs[1] =
        AddInitializer<int64_t>(out + "_" + attr, {static_cast<int64_t>(axes.size())}, axes, ctx);
    attrs.Erase(attr);
  }
  if (node.kind() == OpKind::kResize && ctx.opset < 13) {  // roi and scales are required
    inputs.resize(std::max<size_t>(inputs.size(), 3));
    for (size_t i = 1; i < 3; ++i) {
      if (inputs[i].empty()) inputs[i] = AddInitializer<float>(out + "_empty", {0}, {}, ctx);
    }
  }
  while (!inputs.empty() && inputs.back().empty()) inputs.pop_back();
}

// What older opsets cannot say. Softmax before 13 flattens at `axis`: equal only on the last.
Status CheckOpset(const ir::Node& node, ir::Attributes& attrs, int64_t opset) {
  const std::string where = Where(node);
  if (node.kind() == OpKind::kSoftmax && opset < 13) {
    const ir::Shape x = node.input(0) != nullptr ? node.input(0)->shape() : ir::Shape();
    const int64_t axis = attrs.GetInt("axis", -1), rank = static_cast<int64_t>(x.size());
    if (rank == 0 || (axis < 0 ? axis + rank : axis) != rank - 1) {
      return FailedPrecondition(
          fmt::format("{}: opset {} Softmax equals the IR's only over the "
                      "last axis of an input of known shape; export at "
                      "opset 13 or later",
                      where, opset));
    }
  }
  const bool quant =
      node.kind() == OpKind::kQuantizeLinear || node.kind() == OpKind::kDequantizeLinear;
  if (quant && opset < 13 && attrs.Has("axis")) {
    if (node.input(1) == nullptr || ir::NumElements(node.input(1)->shape()) > 1) {
      return FailedPrecondition(fmt::format("{}: per-axis quantisation needs opset 13", where));
    }
    attrs.Erase("axis");
  }
  if (node.kind() == OpKind::kLayerNormalization && opset < 17) {
    return FailedPrecondition(fmt::format("{}: LayerNormalization needs opset 17", where));
  }
  if (node.kind() == OpKind::kReduceSum && opset < 13 && attrs.Has("noop_with_empty_axes")) {
    return FailedPrecondition(
        fmt::format("{}: ReduceSum noop_with_empty_axes needs opset 13", where));
  }
  if (node.kind() == OpKind::kShape && opset < 15 && (attrs.Has("start") || attrs.Has("end"))) {
    return FailedPrecondition(fmt::format("{}: Shape start/end need opset 15", where));
  }
  if (node.kind() == OpKind::kReshape && opset < 14 && attrs.Has("allowzero")) {
    if (attrs.GetInt("allowzero", 0) != 0) {
      return FailedPrecondition(fmt::format("{}: Reshape allowzero=1 needs opset 14", where));
    }
    attrs.Erase("allowzero");
  }
  return Status::Ok();
}

}  // namespace

Status ExportNode(const ir::Node& node, ExportContext& ctx) {
  const std::optional<std::string_view> op_type = OnnxOpType(node.kind());
  NPU_CHECK(op_type.has_value());  // the export driver refused other kinds
  ir::Attributes attrs = node.attrs();
  NPU_TRY(CheckOpset(node, attrs, ctx.opset));
  std::vector<std::string> inputs;
  for (const ir::Tensor* in : node.inputs()) inputs.push_back(in != nullptr ? in->name() : "");
  UnfoldInputs(node, attrs, inputs, ctx);

  pb::NodeProto* proto = ctx.graph->add_node();
  proto->set_name(node.name());
  proto->set_op_type(std::string(*op_type));
  for (const std::string& in : inputs) proto->add_input(in);
  for (const ir::Tensor* out : node.outputs()) proto->add_output(out->name());
  if (node.kind() == OpKind::kConstantOfShape && attrs.Has("value")) {
    // A one-element tensor attribute in ONNX; a float or int attribute in the IR.
    const auto& v = attrs.values().at("value");
    pb::AttributeProto* a = proto->add_attribute();
    a->set_name("value");
    a->set_type(pb::AttributeProto::TENSOR);
    pb::TensorProto* t = a->mutable_t();
    t->add_dims(1);
    if (const int64_t* i = std::get_if<int64_t>(&v)) {
      t->set_data_type(pb::TensorProto::INT64);
      t->add_int64_data(*i);
    } else {
      t->set_data_type(pb::TensorProto::FLOAT);
      t->add_float_data(attrs.GetFloat("value", 0.0f));
    }
    attrs.Erase("value");
  }
  for (const auto& [name, value] : attrs.values()) WriteAttribute(name, value, proto);
  return Status::Ok();
}

}  // namespace npu::compiler::onnx_detail
