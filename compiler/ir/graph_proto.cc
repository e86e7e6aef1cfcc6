// Writing a graph: tensors by index (graph inputs and constants first, then node outputs in node
// order). Reading: graph inputs, then constants, then nodes (which create their outputs), each
// operand looked up by index and required to exist already.
#include "compiler/ir/graph_proto.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "compiler/ir/graph.pb.h"

namespace npu::compiler::ir {
namespace {

void WriteTensor(const Tensor& t, TensorProto& p) {
  p.set_name(t.name());
  p.set_dtype(std::string(DTypeName(t.dtype())));
  for (int64_t d : t.shape()) p.add_shape(d);
  p.set_layout(std::string(LayoutName(t.layout())));
  for (float s : t.quant().scale) p.add_scale(s);
  for (int32_t z : t.quant().zero_point) p.add_zero_point(z);
  p.set_quant_axis(t.quant().axis);
  p.set_constant(t.is_constant());
  if (t.is_constant()) p.set_data(std::string(t.bytes().begin(), t.bytes().end()));
}

void WriteAttr(const std::string& name, const AttrValue& value, AttrProto& p) {
  p.set_name(name);
  if (const auto* i = std::get_if<int64_t>(&value)) p.set_int_value(*i);
  if (const auto* f = std::get_if<float>(&value)) p.set_float_value(*f);
  if (const auto* s = std::get_if<std::string>(&value)) p.set_string_value(*s);
  if (const auto* is = std::get_if<std::vector<int64_t>>(&value)) {
    for (int64_t v : *is) p.mutable_ints()->add_values(v);
  }
  if (const auto* fs = std::get_if<std::vector<float>>(&value)) {
    for (float v : *fs) p.mutable_floats()->add_values(v);
  }
}

StatusOr<DType> DTypeFromName(std::string_view name) {
  for (DType d : {DType::kUnknown, DType::kFloat32, DType::kInt8, DType::kUInt8, DType::kInt32,
                  DType::kInt64, DType::kFloat16}) {
    if (DTypeName(d) == name) return d;
  }
  return DataLoss(fmt::format("unknown element type '{}'", name));
}

StatusOr<Layout> LayoutFromName(std::string_view name) {
  for (Layout l : {Layout::kNone, Layout::kNCHW, Layout::kNHWC}) {
    if (LayoutName(l) == name) return l;
  }
  return DataLoss(fmt::format("unknown layout '{}'", name));
}

// Element type, shape, layout and quantisation of `p` onto `t`.
Status ReadTensorType(const TensorProto& p, Tensor& t) {
  NPU_ASSIGN_OR_RETURN(const DType dtype, DTypeFromName(p.dtype()));
  NPU_ASSIGN_OR_RETURN(const Layout layout, LayoutFromName(p.layout()));
  for (int64_t d : p.shape()) {
    if (d < 0) return DataLoss(fmt::format("tensor '{}': dim {} is negative", p.name(), d));
  }
  t.set_dtype(dtype);
  t.set_shape(Shape(p.shape().begin(), p.shape().end()));
  t.set_layout(layout);
  t.quant().scale.assign(p.scale().begin(), p.scale().end());
  t.quant().zero_point.assign(p.zero_point().begin(), p.zero_point().end());
  t.quant().axis = p.quant_axis();
  return Status::Ok();
}

// The bytes a constant of this type and shape holds, or nothing if that does not fit 64 bits.
std::optional<uint64_t> ConstantBytes(DType dtype, const Shape& shape) {
  uint64_t n = DTypeBytes(dtype);
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(n, uint64_t(d), &n)) return std::nullopt;
  }
  return n;
}

AttrValue ReadAttr(const AttrProto& p) {
  switch (p.value_case()) {
    case AttrProto::kIntValue:
      return p.int_value();
    case AttrProto::kFloatValue:
      return p.float_value();
    case AttrProto::kStringValue:
      return p.string_value();
    case AttrProto::kInts:
      return std::vector<int64_t>(p.ints().values().begin(), p.ints().values().end());
    case AttrProto::kFloats:
      return std::vector<float>(p.floats().values().begin(), p.floats().values().end());
    case AttrProto::VALUE_NOT_SET:
      break;
  }
  return std::vector<int64_t>{};  // an empty list, as written for an empty ints attribute
}

// Builds the graph from a parsed GraphProto, one tensor index at a time.
class Reader {
 public:
  explicit Reader(const GraphProto& p) : p_(p), made_(p.tensors_size(), nullptr) {}

  StatusOr<Graph> Read() {
    graph_.set_name(p_.name());
    for (int index : p_.inputs()) NPU_TRY(AddInput(index));
    for (int i = 0; i < p_.tensors_size(); ++i) {
      if (p_.tensors(i).constant()) NPU_TRY(AddConstant(i));
    }
    for (const NodeProto& n : p_.nodes()) NPU_TRY(AddNode(n));
    for (int index : p_.outputs()) {
      NPU_ASSIGN_OR_RETURN(Tensor * t, Made(index, "graph output"));
      graph_.AddOutput(t);
    }
    return std::move(graph_);
  }

 private:
  // Tensor `index` of the proto, not created yet and with a name no tensor has.
  StatusOr<const TensorProto*> Fresh(int index, std::string_view role) {
    if (index < 0 || index >= p_.tensors_size() || made_[index] != nullptr) {
      return DataLoss(fmt::format("{}: tensor index {} is not a new tensor of the {}", role, index,
                                  p_.tensors_size()));
    }
    const TensorProto& t = p_.tensors(index);
    if (graph_.FindTensor(t.name()) != nullptr) {
      return DataLoss(fmt::format("{}: tensor name '{}' used twice", role, t.name()));
    }
    return &t;
  }

  StatusOr<Tensor*> Made(int index, std::string_view role) {
    if (index < 0 || index >= p_.tensors_size() || made_[index] == nullptr) {
      return DataLoss(fmt::format("{}: tensor index {} does not exist yet", role, index));
    }
    return made_[index];
  }

  Status AddInput(int index) {
    NPU_ASSIGN_OR_RETURN(const TensorProto* p, Fresh(index, "graph input"));
    Tensor* t = graph_.AddInput(p->name(), DType::kUnknown, {}, Layout::kNone);
    made_[index] = t;
    return ReadTensorType(*p, *t);
  }

  Status AddConstant(int index) {
    NPU_ASSIGN_OR_RETURN(const TensorProto* p, Fresh(index, "constant"));
    Tensor* t = graph_.AddConstant<uint8_t>(p->name(), {}, {});
    made_[index] = t;
    NPU_TRY(ReadTensorType(*p, *t));
    const std::optional<uint64_t> bytes = ConstantBytes(t->dtype(), t->shape());
    if (t->dtype() == DType::kUnknown || !bytes || *bytes != p->data().size()) {
      return DataLoss(fmt::format("constant '{}': {} bytes of data for {} {}", p->name(),
                                  p->data().size(), p->dtype(), ShapeText(t->shape())));
    }
    t->set_bytes(t->dtype(), std::vector<uint8_t>(p->data().begin(), p->data().end()));
    return Status::Ok();
  }

  Status AddNode(const NodeProto& n) {
    const std::string role = fmt::format("node '{}'", n.name());
    const std::optional<OpKind> kind = OpKindFromName(n.op());
    if (!kind) return DataLoss(fmt::format("{}: unknown op '{}'", role, n.op()));
    std::vector<Tensor*> inputs;
    for (int index : n.inputs()) {
      if (index == -1) {
        inputs.push_back(nullptr);
        continue;
      }
      NPU_ASSIGN_OR_RETURN(Tensor * t, Made(index, role));
      inputs.push_back(t);
    }
    std::vector<std::string> names;
    for (int index : n.outputs()) {
      NPU_ASSIGN_OR_RETURN(const TensorProto* p, Fresh(index, role));
      if (std::find(names.begin(), names.end(), p->name()) != names.end()) {
        return DataLoss(fmt::format("{}: output '{}' listed twice", role, p->name()));
      }
      names.push_back(p->name());
    }
    Attributes attrs;
    for (const AttrProto& a : n.attrs()) attrs.Set(a.name(), ReadAttr(a));
    Node* node = graph_.AddNode(*kind, n.name(), inputs, names, std::move(attrs));
    for (int i = 0; i < n.outputs_size(); ++i) {
      made_[n.outputs(i)] = node->output(i);
      NPU_TRY(ReadTensorType(p_.tensors(n.outputs(i)), *node->output(i)));
    }
    return Status::Ok();
  }

  const GraphProto& p_;
  std::vector<Tensor*> made_;
  Graph graph_;
};

}  // namespace

std::string SerializeGraph(const Graph& graph) {
  GraphProto p;
  p.set_name(graph.name());
  std::unordered_map<const Tensor*, int> index;
  for (const Tensor* t : graph.tensors()) {
    index[t] = p.tensors_size();
    WriteTensor(*t, *p.add_tensors());
  }
  for (const Node* n : graph.nodes()) {
    NodeProto* np = p.add_nodes();
    np->set_op(std::string(OpName(n->kind())));
    np->set_name(n->name());
    for (const Tensor* t : n->inputs()) np->add_inputs(t == nullptr ? -1 : index.at(t));
    for (const Tensor* t : n->outputs()) np->add_outputs(index.at(t));
    for (const auto& [name, value] : n->attrs().values()) WriteAttr(name, value, *np->add_attrs());
  }
  for (const Tensor* t : graph.inputs()) p.add_inputs(index.at(t));
  for (const Tensor* t : graph.outputs()) p.add_outputs(index.at(t));
  return p.SerializeAsString();
}

StatusOr<Graph> ParseGraph(std::string_view bytes) {
  GraphProto p;
  if (bytes.size() > INT32_MAX || !p.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return DataLoss("the reference graph does not parse");
  }
  return Reader(p).Read();
}

}  // namespace npu::compiler::ir
