// ONNX AttributeProto <-> IR attributes (ints, floats, strings and lists of ints or floats).
#pragma once

#include <string>

#include "compiler/ir/attributes.h"
#include "compiler/onnx/proto.h"
#include "hw/spec/status.h"

namespace npu::compiler::onnx_detail {

// The node's attributes, keeping ONNX names. Tensor, graph and string-list attributes are
// refused: no supported op other than Constant (read separately) takes them. `where` names the
// node in errors.
StatusOr<ir::Attributes> ReadAttributes(const pb::NodeProto& node, const std::string& where);

void WriteAttribute(const std::string& name, const ir::AttrValue& value, pb::NodeProto* node);

}  // namespace npu::compiler::onnx_detail
