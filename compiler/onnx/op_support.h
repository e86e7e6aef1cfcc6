// Which ONNX models and nodes import takes: default-domain opsets 11..17, the op list below
// (kOps in op_support.cc), and per-op features. Checked before anything is built, so that an
// unsupported model gets one error listing every unsupported node.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/op_kind.h"
#include "compiler/onnx/proto.h"
#include "hw/spec/status.h"

namespace npu::compiler::onnx_detail {

constexpr int64_t kMinOpset = 11;
constexpr int64_t kMaxOpset = 17;

using OpsetMap = std::map<std::string, int64_t>;  // domain ("" for ai.onnx) -> version

// The model's opset imports; fails unless the default domain is imported at 11..17.
StatusOr<OpsetMap> ReadOpsets(const pb::ModelProto& model);

// A node's name for messages and the IR: its own, or "<op_type>_<index>" if it has none.
std::string NodeName(const pb::NodeProto& node, int index);
std::string NodeLabel(const pb::NodeProto& node, int index);  // "node 'conv1' (Conv)"

// One Unimplemented error naming every node (name, op type, domain, opset, reason) that import
// does not take; ok if there is none. `constants` holds the names of initializers and Constant
// outputs (some inputs must be constants, like Clip's bounds).
Status CheckSupported(const pb::GraphProto& graph, const OpsetMap& opsets,
                      const std::set<std::string>& constants);

// Every op type import takes, in the table's order (for tools and fuzzers that generate models).
std::vector<std::string_view> SupportedOpTypes();

// The IR op a supported ONNX op type imports as (Dropout: Identity), or nullopt.
std::optional<ir::OpKind> ImportedKind(std::string_view op_type);

// The ONNX op type of an IR op, if it is one import takes (and export writes).
std::optional<std::string_view> OnnxOpType(ir::OpKind kind);

// Input and output counts of every (supported) node; fails on the first wrong one.
Status CheckArity(const pb::GraphProto& graph, int64_t opset);

}  // namespace npu::compiler::onnx_detail
