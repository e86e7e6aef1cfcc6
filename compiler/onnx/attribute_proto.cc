// Attribute conversion. Old exporters leave AttributeProto.type unset; the type then follows
// from the field that holds the value, as onnx.helper.get_attribute_value does.
#include "compiler/onnx/attribute_proto.h"

#include <fmt/format.h>

namespace npu::compiler::onnx_detail {
namespace {

pb::AttributeProto::AttributeType TypeOf(const pb::AttributeProto& a) {
  if (a.type() != pb::AttributeProto::UNDEFINED) return a.type();
  if (a.has_f()) return pb::AttributeProto::FLOAT;
  if (a.has_i()) return pb::AttributeProto::INT;
  if (a.has_s()) return pb::AttributeProto::STRING;
  if (a.has_t()) return pb::AttributeProto::TENSOR;
  if (a.has_g()) return pb::AttributeProto::GRAPH;
  if (a.floats_size() > 0) return pb::AttributeProto::FLOATS;
  if (a.ints_size() > 0) return pb::AttributeProto::INTS;
  return pb::AttributeProto::UNDEFINED;
}

StatusOr<ir::AttrValue> ReadValue(const pb::AttributeProto& a, const std::string& where) {
  switch (TypeOf(a)) {
    case pb::AttributeProto::FLOAT:
      return ir::AttrValue(a.f());
    case pb::AttributeProto::INT:
      return ir::AttrValue(static_cast<int64_t>(a.i()));
    case pb::AttributeProto::STRING:
      return ir::AttrValue(a.s());
    case pb::AttributeProto::FLOATS:
      return ir::AttrValue(std::vector<float>(a.floats().begin(), a.floats().end()));
    case pb::AttributeProto::INTS:
      return ir::AttrValue(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
    case pb::AttributeProto::UNDEFINED:
      return InvalidArgument(fmt::format("{}: attribute '{}' has no value", where, a.name()));
    default:
      return Unimplemented(fmt::format("{}: attribute '{}' is a {}, which is not supported", where,
                                       a.name(),
                                       pb::AttributeProto::AttributeType_Name(TypeOf(a))));
  }
}

}  // namespace

StatusOr<ir::Attributes> ReadAttributes(const pb::NodeProto& node, const std::string& where) {
  ir::Attributes attrs;
  for (const pb::AttributeProto& a : node.attribute()) {
    if (a.name().empty())
      return InvalidArgument(fmt::format("{}: an attribute has no name", where));
    if (!a.ref_attr_name().empty()) {
      return Unimplemented(
          fmt::format("{}: attribute '{}' refers to a function attribute", where, a.name()));
    }
    if (attrs.Has(a.name())) {
      return InvalidArgument(fmt::format("{}: attribute '{}' is given twice", where, a.name()));
    }
    NPU_ASSIGN_OR_RETURN(ir::AttrValue value, ReadValue(a, where));
    attrs.Set(a.name(), std::move(value));
  }
  return attrs;
}

void WriteAttribute(const std::string& name, const ir::AttrValue& value, pb::NodeProto* node) {
  pb::AttributeProto* a = node->add_attribute();
  a->set_name(name);
  struct Writer {
    pb::AttributeProto* a;
    void operator()(int64_t v) const {
      a->set_type(pb::AttributeProto::INT);
      a->set_i(v);
    }
    void operator()(float v) const {
      a->set_type(pb::AttributeProto::FLOAT);
      a->set_f(v);
    }
    void operator()(const std::string& v) const {
      a->set_type(pb::AttributeProto::STRING);
      a->set_s(v);
    }
    void operator()(const std::vector<int64_t>& v) const {
      a->set_type(pb::AttributeProto::INTS);
      for (int64_t x : v) a->add_ints(x);
    }
    void operator()(const std::vector<float>& v) const {
      a->set_type(pb::AttributeProto::FLOATS);
      for (float x : v) a->add_floats(x);
    }
  };
  std::visit(Writer{a}, value);
}

}  // namespace npu::compiler::onnx_detail
