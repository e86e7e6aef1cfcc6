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

// Inputs that are attributes in the IR (op_support checked they are constants):
//   Clip(X, min, max)          -> Clip(X) {min, max}      (absent bound: no attribute)
//   Squeeze/Unsqueeze(X, axes) -> op(X) {axes}            (opset >= 13)
Status FoldConstantInputs(OpKind kind, std::vector<ir::Tensor*>& inputs, ir::Attributes& attrs,
                          const std::string& where) {
  if (kind == OpKind::kClip) {
    const char* names[] = {"", "min", "max"};
    for (size_t i = 1; i < inputs.size(); ++i) {
      if (inputs[i] == nullptr) continue;
      NPU_ASSIGN_OR_RETURN(float bound, ConstantScalar(*inputs[i], where));
      attrs.Set(names[i], bound);
    }
    inputs.resize(1);
  }
  if ((kind == OpKind::kSqueeze || kind == OpKind::kUnsqueeze) && inputs.size() > 1) {
    if (inputs[1] != nullptr) {
      NPU_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ConstantInts(*inputs[1], where));
      attrs.Set("axes", axes);
    }
    inputs.resize(1);
  }
  return Status::Ok();
}

// Types the new output from value_info and records its rank: declared if value_info gives one
// (even with symbolic dims), else by the op's rank rule.
void TypeOutput(ir::Node& node, ImportContext& ctx) {
  ir::Tensor* out = node.output(0);
  auto declared = ctx.declared.find(out->name());
  if (declared != ctx.declared.end()) {
    const DeclaredType& t = declared->second;
    if (std::optional<ir::DType> dtype = DTypeFromOnnx(t.elem_type)) out->set_dtype(*dtype);
    if (std::optional<ir::Shape> shape = StaticShape(t, ctx.symbols)) out->set_shape(*shape);
    if (t.has_shape) {
      ctx.ranks.Set(out, static_cast<int>(t.dims.size()));
      return;
    }
  }
  std::optional<int> rank = OutputRank(node.kind(), node.inputs(), node.attrs(), ctx.ranks);
  if (rank && *rank >= 0) ctx.ranks.Set(out, *rank);  // < 0 only on malformed ops
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
// 3. Add the node; type its output.
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
  NPU_ASSIGN_OR_RETURN(ir::Attributes attrs, ReadAttributes(node, where));
  if (node.op_type() == "Dropout") {  // inference Dropout: an identity; ratio and seed unused
    inputs.resize(1);
    attrs = {};
  }
  NPU_TRY(FoldConstantInputs(*kind, inputs, attrs, where));
  NPU_TRY(NormalizeAttributes(*kind, inputs, attrs, ctx.ranks, ctx.opset, where));
  ir::Node* added =
      ctx.graph.AddNode(*kind, NodeName(node, index), inputs, {node.output(0)}, std::move(attrs));
  TypeOutput(*added, ctx);
  return Status::Ok();
}

}  // namespace npu::compiler::onnx_detail
