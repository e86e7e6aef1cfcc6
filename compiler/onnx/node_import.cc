// Node import.
#include "compiler/onnx/node_import.h"

#include <fmt/format.h>

#include <cstring>

#include "compiler/onnx/attr_defaults.h"
#include "compiler/onnx/attribute_proto.h"
#include "compiler/onnx/op_support.h"

namespace npu::compiler::onnx_detail {
namespace {

using ir::OpKind;

template <class T>
ConstantData MakeData(ir::Shape shape, const std::vector<T>& values) {
  ConstantData c{ir::DTypeOf<T>(), std::move(shape),
                 std::vector<uint8_t>(values.size() * sizeof(T))};
  if (!values.empty()) std::memcpy(c.bytes.data(), values.data(), c.bytes.size());
  return c;
}

// The value of a Constant node (op_support checked it has exactly one supported attribute).
StatusOr<ConstantData> ConstantValue(const pb::NodeProto& node, const std::string& where) {
  const pb::AttributeProto& a = node.attribute(0);
  if (a.name() == "value") return ReadTensorProto(a.t(), where);
  if (a.name() == "value_float") return MakeData<float>({}, {a.f()});
  if (a.name() == "value_int") return MakeData<int64_t>({}, {a.i()});
  if (a.name() == "value_floats") {
    return MakeData<float>({a.floats_size()}, {a.floats().begin(), a.floats().end()});
  }
  return MakeData<int64_t>({a.ints_size()}, {a.ints().begin(), a.ints().end()});
}

// A constant integer input's values (Squeeze/Unsqueeze axes).
StatusOr<std::vector<int64_t>> ConstantInts(const ir::Tensor& t, const std::string& where) {
  if (!t.is_constant()) {
    return InvalidArgument(fmt::format("{}: '{}' is not a constant", where, t.name()));
  }
  if (t.dtype() == ir::DType::kInt64) {
    return std::vector<int64_t>(t.data<int64_t>().begin(), t.data<int64_t>().end());
  }
  if (t.dtype() == ir::DType::kInt32) {
    return std::vector<int64_t>(t.data<int32_t>().begin(), t.data<int32_t>().end());
  }
  return InvalidArgument(fmt::format("{}: '{}' must hold integers, not {}", where, t.name(),
                                     ir::DTypeName(t.dtype())));
}

// A constant float scalar input's value (Clip bounds).
StatusOr<float> ConstantScalar(const ir::Tensor& t, const std::string& where) {
  if (!t.is_constant() || t.dtype() != ir::DType::kFloat32 || t.data<float>().size() != 1) {
    return Unimplemented(fmt::format("{}: bound '{}' is {}{}; only one float is supported", where,
                                     t.name(), ir::DTypeName(t.dtype()), ir::ShapeText(t.shape())));
  }
  return t.data<float>()[0];
}

bool IsEmptyConstant(const ir::Tensor* t) {
  return t != nullptr && t->is_constant() && ir::NumElements(t->shape()) == 0;
}

// Resize(X, roi, scales, sizes): roi only matters for tf_crop_and_resize (refused), and opset 11
// writes empty constants for the unused scales: both become omitted inputs.
void NormalizeResizeInputs(std::vector<ir::Tensor*>& inputs) {
  if (inputs.size() > 1) inputs[1] = nullptr;
  for (size_t i = 2; i < inputs.size(); ++i) {
    if (IsEmptyConstant(inputs[i])) inputs[i] = nullptr;
  }
}

// Inputs that are attributes in the IR (op_support checked they are constants):
//   Clip(X, min, max)          -> Clip(X) {min, max}      (absent bound: no attribute)
//   Squeeze/Unsqueeze(X, axes) -> op(X) {axes}            (opset >= 13)
//   ReduceSum(X, axes)         -> ReduceSum(X) {axes}     (opset >= 13)
//   Split(X, split)            -> Split(X) {split}        (opset >= 13)
Status FoldConstantInputs(OpKind kind, std::vector<ir::Tensor*>& inputs, ir::Attributes& attrs,
                          const std::string& where) {
  if (kind == OpKind::kResize) NormalizeResizeInputs(inputs);
  if (kind == OpKind::kClip) {
    const char* names[] = {"", "min", "max"};
    for (size_t i = 1; i < inputs.size(); ++i) {
      if (inputs[i] == nullptr) continue;
      NPU_ASSIGN_OR_RETURN(float bound, ConstantScalar(*inputs[i], where));
      attrs.Set(names[i], bound);
    }
    inputs.resize(1);
  }
  const bool axes_input = kind == OpKind::kSqueeze || kind == OpKind::kUnsqueeze ||
                          kind == OpKind::kReduceSum || kind == OpKind::kSplit;
  if (axes_input && inputs.size() > 1) {
    if (inputs[1] != nullptr && !(kind == OpKind::kReduceSum && IsEmptyConstant(inputs[1]))) {
      NPU_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ConstantInts(*inputs[1], where));
      attrs.Set(kind == OpKind::kSplit ? "split" : "axes", axes);
    }
    inputs.resize(1);
  }
  while (!inputs.empty() && inputs.back() == nullptr) inputs.pop_back();
  return Status::Ok();
}

// Types the new outputs from value_info and records their ranks: declared if value_info gives
// one (even with symbolic dims), else by the op's rank rule.
void TypeOutputs(ir::Node& node, ImportContext& ctx) {
  for (ir::Tensor* out : node.outputs()) {
    auto declared = ctx.declared.find(out->name());
    if (declared != ctx.declared.end()) {
      const DeclaredType& t = declared->second;
      if (std::optional<ir::DType> dtype = DTypeFromOnnx(t.elem_type)) out->set_dtype(*dtype);
      if (std::optional<ir::Shape> shape = StaticShape(t, ctx.symbols)) out->set_shape(*shape);
      if (t.has_shape) {
        ctx.ranks.Set(out, static_cast<int>(t.dims.size()));
        continue;
      }
    }
    std::optional<int> rank = OutputRank(node.kind(), node.inputs(), node.attrs(), ctx.ranks);
    if (rank && *rank >= 0) ctx.ranks.Set(out, *rank);  // < 0 only on malformed ops
  }
}

// ConstantOfShape's `value` is a one-element tensor attribute, which IR attributes cannot hold:
// it becomes a float or an int attribute (whose type gives the output's, docs/ir.md).
StatusOr<ir::Attributes> ConstantOfShapeAttributes(const pb::NodeProto& node,
                                                   const std::string& where) {
  ir::Attributes attrs;
  for (const pb::AttributeProto& a : node.attribute()) {
    if (a.name() != "value") continue;
    NPU_ASSIGN_OR_RETURN(ConstantData c, ReadTensorProto(a.t(), where));
    if (ir::NumElements(c.shape) != 1) {
      return InvalidArgument(fmt::format("{}: value must hold one element", where));
    }
    if (c.dtype == ir::DType::kInt64) {
      int64_t v;
      std::memcpy(&v, c.bytes.data(), sizeof v);
      attrs.Set("value", v);
    } else {
      float v;
      std::memcpy(&v, c.bytes.data(), sizeof v);
      attrs.Set("value", v);
    }
  }
  return attrs;
}

}  // namespace

StatusOr<ir::Tensor*> AddConstant(const std::string& name, ConstantData data, ImportContext& ctx) {
  auto declared = ctx.declared.find(name);
  if (declared != ctx.declared.end()) {
    NPU_TRY(CheckDeclared(fmt::format("constant '{}'", name), declared->second, data.dtype,
                          data.shape));
  }
  // Graph::AddConstant is typed; the bytes are already in the tensor's element type.
  ir::Tensor* t = ctx.graph.AddConstant<uint8_t>(name, std::move(data.shape), {});
  t->set_bytes(data.dtype, std::move(data.bytes));
  return t;
}

// 1. Constant: a constant tensor, no node.
// 2. Resolve inputs (empty name: omitted optional input, trailing ones dropped), read
//    attributes (Dropout keeps neither: it is an Identity), fold IR-attribute inputs, normalise
//    attributes.
// 3. Add the node; type its outputs (only Split has several).
Status ImportNode(const pb::NodeProto& node, int index, ImportContext& ctx) {
  const std::string where = NodeLabel(node, index);
  if (node.op_type() == "Constant") {
    NPU_ASSIGN_OR_RETURN(ConstantData data, ConstantValue(node, where));
    return AddConstant(node.output(0), std::move(data), ctx).status();
  }
  const std::optional<OpKind> kind = ImportedKind(node.op_type());
  NPU_CHECK(kind.has_value());  // op_support listed every supported op type
  std::vector<ir::Tensor*> inputs;
  for (const std::string& name : node.input()) {
    inputs.push_back(name.empty() ? nullptr : ctx.graph.FindTensor(name));
    NPU_CHECK(name.empty() || inputs.back() != nullptr);  // OrderNodes checked every read
  }
  while (!inputs.empty() && inputs.back() == nullptr) inputs.pop_back();
  NPU_ASSIGN_OR_RETURN(ir::Attributes attrs, node.op_type() == "ConstantOfShape"
                                                 ? ConstantOfShapeAttributes(node, where)
                                                 : ReadAttributes(node, where));
  if (node.op_type() == "Dropout") {  // inference Dropout: an identity; ratio and seed unused
    inputs.resize(1);
    attrs = {};
  }
  NPU_TRY(FoldConstantInputs(*kind, inputs, attrs, where));
  NPU_TRY(NormalizeAttributes(*kind, inputs, attrs, ctx.ranks, ctx.opset, where));
  std::vector<std::string> outputs = {node.output(0)};
  if (*kind == OpKind::kSplit) outputs.assign(node.output().begin(), node.output().end());
  ir::Node* added =
      ctx.graph.AddNode(*kind, NodeName(node, index), inputs, outputs, std::move(attrs));
  TypeOutputs(*added, ctx);
  return Status::Ok();
}

}  // namespace npu::compiler::onnx_detail
