// Hand-built ONNX models.
#include "tests/onnx/model_builder.h"

namespace npu::compiler::onnx_test {
namespace {

void SetType(::onnx::ValueInfoProto* vi, const std::string& name,
             const std::vector<std::string>& dims, int32_t elem_type, bool with_shape) {
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  if (!with_shape) return;
  auto* shape = tt->mutable_shape();
  for (const std::string& d : dims) {
    auto* dim = shape->add_dim();
    if (d == "?") continue;
    if (d.find_first_not_of("0123456789") == std::string::npos) {
      dim->set_dim_value(std::stoll(d));
    } else {
      dim->set_dim_param(d);
    }
  }
}

::onnx::AttributeProto* AddAttr(::onnx::NodeProto* node, const std::string& name,
                                ::onnx::AttributeProto::AttributeType type) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(type);
  return a;
}

}  // namespace

NodeRef& NodeRef::Int(const std::string& name, int64_t v) {
  AddAttr(node_, name, ::onnx::AttributeProto::INT)->set_i(v);
  return *this;
}
NodeRef& NodeRef::Float(const std::string& name, float v) {
  AddAttr(node_, name, ::onnx::AttributeProto::FLOAT)->set_f(v);
  return *this;
}
NodeRef& NodeRef::Ints(const std::string& name, const std::vector<int64_t>& v) {
  auto* a = AddAttr(node_, name, ::onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
  return *this;
}
NodeRef& NodeRef::String(const std::string& name, const std::string& v) {
  AddAttr(node_, name, ::onnx::AttributeProto::STRING)->set_s(v);
  return *this;
}
NodeRef& NodeRef::Tensor(const std::string& name, const ::onnx::TensorProto& t) {
  *AddAttr(node_, name, ::onnx::AttributeProto::TENSOR)->mutable_t() = t;
  return *this;
}
NodeRef& NodeRef::Name(const std::string& name) {
  node_->set_name(name);
  return *this;
}

ModelBuilder::ModelBuilder(int64_t opset) {
  model_.set_ir_version(7);
  model_.set_producer_name("onnx_test");
  auto* id = model_.add_opset_import();
  id->set_domain("");
  id->set_version(opset);
  model_.mutable_graph()->set_name("test");
}

void ModelBuilder::Input(const std::string& name, const std::vector<std::string>& dims,
                         int32_t elem_type) {
  SetType(graph().add_input(), name, dims, elem_type, true);
}

void ModelBuilder::Output(const std::string& name, const std::vector<std::string>& dims,
                          int32_t elem_type) {
  SetType(graph().add_output(), name, dims, elem_type, !dims.empty());
}

void ModelBuilder::ValueInfo(const std::string& name, const std::vector<std::string>& dims,
                             int32_t elem_type) {
  SetType(graph().add_value_info(), name, dims, elem_type, true);
}

::onnx::TensorProto FloatTensor(const std::vector<int64_t>& dims,
                                const std::vector<float>& values) {
  ::onnx::TensorProto t;
  t.set_data_type(::onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  t.set_raw_data(values.data(), values.size() * sizeof(float));
  return t;
}

::onnx::TensorProto* ModelBuilder::Initializer(const std::string& name,
                                               const std::vector<int64_t>& dims,
                                               const std::vector<float>& values) {
  auto* t = graph().add_initializer();
  *t = FloatTensor(dims, values);
  t->set_name(name);
  return t;
}

::onnx::TensorProto* ModelBuilder::InitializerI64(const std::string& name,
                                                  const std::vector<int64_t>& dims,
                                                  const std::vector<int64_t>& values) {
  auto* t = graph().add_initializer();
  t->set_name(name);
  t->set_data_type(::onnx::TensorProto::INT64);
  for (int64_t d : dims) t->add_dims(d);
  for (int64_t v : values) t->add_int64_data(v);  // the typed field, unlike the float helpers
  return t;
}

NodeRef ModelBuilder::Node(const std::string& op_type, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& outputs, const std::string& name) {
  auto* n = graph().add_node();
  n->set_op_type(op_type);
  n->set_name(name);
  for (const std::string& in : inputs) n->add_input(in);
  for (const std::string& out : outputs) n->add_output(out);
  return NodeRef(n);
}

std::string ModelBuilder::Bytes() const { return model_.SerializeAsString(); }

ModelBuilder ConvReluModel(int64_t opset) {
  ModelBuilder m(opset);
  m.Input("x", {"1", "3", "8", "8"});
  m.Initializer("w", {4, 3, 3, 3}, std::vector<float>(108, 0.1f));
  m.Initializer("b", {4}, {0.f, 1.f, 2.f, 3.f});
  m.Node("Conv", {"x", "w", "b"}, {"c"}, "conv").Ints("pads", {1, 1, 1, 1});
  m.Node("Relu", {"c"}, {"y"}, "relu");
  m.Output("y", {"1", "4", "8", "8"});
  return m;
}

}  // namespace npu::compiler::onnx_test
