// The supported-op table, opset checks and the unsupported-node listing.
#include "compiler/onnx/op_support.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <vector>

namespace npu::compiler::onnx_detail {
namespace {

constexpr int kAny = 1 << 20;  // no upper bound on the input count

struct OpSupport {
  std::string_view op_type;
  int min_inputs;
  int max_inputs;  // every supported op but Split has exactly one output
};

// Input counts at opset 13+; before 13, Squeeze, Unsqueeze, ReduceSum and Split take axes / split
// as an attribute and Resize needs roi and scales (CheckArity).
constexpr OpSupport kOps[] = {
    {"Conv", 2, 3},
    {"BatchNormalization", 5, 5},
    {"Relu", 1, 1},
    {"Clip", 1, 3},
    {"Add", 2, 2},
    {"Sub", 2, 2},
    {"Mul", 2, 2},
    {"Div", 2, 2},
    {"MaxPool", 1, 1},
    {"AveragePool", 1, 1},
    {"GlobalAveragePool", 1, 1},
    {"Flatten", 1, 1},
    {"Reshape", 2, 2},
    {"Gemm", 2, 3},
    {"MatMul", 2, 2},
    {"Concat", 1, kAny},
    {"Identity", 1, 1},
    {"Dropout", 1, 3},  // inference: imported as Identity
    {"Constant", 0, 0},
    {"Transpose", 1, 1},
    {"Softmax", 1, 1},
    {"Pad", 2, 3},
    {"Squeeze", 1, 2},
    {"Unsqueeze", 2, 2},
    {"Gather", 2, 2},
    {"Shape", 1, 1},
    {"Sigmoid", 1, 1},
    {"HardSigmoid", 1, 1},
    {"HardSwish", 1, 1},
    {"Tanh", 1, 1},
    {"Erf", 1, 1},
    {"Exp", 1, 1},
    {"Log", 1, 1},
    {"Sqrt", 1, 1},
    {"Reciprocal", 1, 1},
    {"Neg", 1, 1},
    {"Abs", 1, 1},
    {"LeakyRelu", 1, 1},
    {"Elu", 1, 1},
    {"Softplus", 1, 1},
    {"Pow", 2, 2},
    {"Max", 1, kAny},
    {"Min", 1, kAny},
    {"ReduceMean", 1, 1},
    {"ReduceSum", 1, 2},
    {"ReduceMax", 1, 1},
    {"Slice", 3, 5},
    {"Split", 1, 2},
    {"Resize", 1, 4},
    {"LayerNormalization", 2, 3},
    {"ConvTranspose", 2, 3},
    {"Expand", 2, 2},
    {"ConstantOfShape", 1, 1},
    {"Cast", 1, 1},
    {"Range", 3, 3},
    {"QuantizeLinear", 2, 3},
    {"DequantizeLinear", 2, 3},
    {"QLinearConv", 8, 9},
    {"QLinearMatMul", 8, 8},
};

const OpSupport* FindOp(std::string_view op_type) {
  for (const OpSupport& op : kOps) {
    if (op.op_type == op_type) return &op;
  }
  return nullptr;
}

bool IsDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

const pb::AttributeProto* FindAttr(const pb::NodeProto& node, std::string_view name) {
  for (const pb::AttributeProto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

int NonEmptyOutputs(const pb::NodeProto& node) {
  int n = 0;
  for (const std::string& out : node.output()) n += !out.empty();
  return n;
}

// The first input at index `first` or later that is given but is not a constant.
std::optional<std::string> ComputedInput(const pb::NodeProto& node, int first,
                                         const std::set<std::string>& constants) {
  for (int i = first; i < node.input_size(); ++i) {
    const std::string& in = node.input(i);
    if (!in.empty() && !constants.count(in)) return in;
  }
  return std::nullopt;
}

// Conv, MaxPool and AveragePool take 1-D and 2-D kernels; ConvTranspose and QLinearConv 2-D.
std::optional<std::string> KernelReason(const pb::NodeProto& node) {
  const pb::AttributeProto* k = FindAttr(node, "kernel_shape");
  const bool one_d_ok =
      node.op_type() == "Conv" || node.op_type() == "MaxPool" || node.op_type() == "AveragePool";
  if (k != nullptr && k->ints_size() != 2 && !(one_d_ok && k->ints_size() == 1)) {
    return fmt::format("{}-D kernel; only {}2-D (NCHW) is supported", k->ints_size(),
                       one_d_ok ? "1-D (NCL) and " : "");
  }
  const pb::AttributeProto* pad = FindAttr(node, "auto_pad");
  if (pad != nullptr && pad->s() != "NOTSET" && pad->s() != "SAME_UPPER" &&
      pad->s() != "SAME_LOWER" && pad->s() != "VALID") {
    return fmt::format("auto_pad '{}' is not an ONNX padding mode", pad->s());
  }
  return std::nullopt;
}

std::optional<std::string> ConstantReason(const pb::NodeProto& node) {
  if (node.attribute_size() != 1) return "a Constant needs exactly one value attribute";
  const std::string& name = node.attribute(0).name();
  if (name == "value" || name == "value_float" || name == "value_floats" || name == "value_int" ||
      name == "value_ints") {
    return std::nullopt;
  }
  return fmt::format("Constant '{}' is not supported (only tensors, floats and ints)", name);
}

std::optional<std::string> ResizeReason(const pb::NodeProto& node) {
  const pb::AttributeProto* mode = FindAttr(node, "mode");
  if (mode != nullptr && mode->s() != "nearest" && mode->s() != "linear") {
    return fmt::format("mode '{}'; only 'nearest' and 'linear' are supported", mode->s());
  }
  const pb::AttributeProto* ctm = FindAttr(node, "coordinate_transformation_mode");
  if (ctm != nullptr && ctm->s() == "tf_crop_and_resize") {
    return "coordinate_transformation_mode 'tf_crop_and_resize' is not supported";
  }
  return std::nullopt;
}

// Features of the ops added for torch's exports that import does not take.
std::optional<std::string> NewOpReason(const pb::NodeProto& node, int64_t opset,
                                       const std::set<std::string>& constants) {
  const std::string& op = node.op_type();
  if (op == "Pow") {
    if (auto in = ComputedInput(node, 1, constants)) {
      return fmt::format("exponent '{}' is computed; only a constant exponent is supported", *in);
    }
  }
  if ((op == "ReduceSum" || op == "Split") && opset >= 13) {
    if (auto in = ComputedInput(node, 1, constants)) {
      return fmt::format("{} '{}' is computed; only constants are supported",
                         op == "Split" ? "split" : "axes", *in);
    }
  }
  if (op == "Resize") return ResizeReason(node);
  if (op == "LayerNormalization" && opset < 17) {
    return fmt::format("LayerNormalization is an opset-17 op; the model imports opset {}", opset);
  }
  if (op == "Cast") {
    const pb::AttributeProto* to = FindAttr(node, "to");
    constexpr int64_t kTypes[] = {1, 2, 3, 6, 7};  // FLOAT UINT8 INT8 INT32 INT64
    if (to == nullptr ||
        std::find(std::begin(kTypes), std::end(kTypes), to->i()) == std::end(kTypes)) {
      return fmt::format("cast to ONNX type {}; FLOAT, UINT8, INT8, INT32 and INT64 are supported",
                         to != nullptr ? to->i() : 0);
    }
  }
  if (op == "ConstantOfShape") {
    const pb::AttributeProto* v = FindAttr(node, "value");
    const int type = v != nullptr ? v->t().data_type() : pb::TensorProto::FLOAT;
    if (type != pb::TensorProto::FLOAT && type != pb::TensorProto::INT64) {
      return "value must be a FLOAT or INT64 tensor";
    }
  }
  return std::nullopt;
}

// Why import cannot take this node of a supported op, or nullopt if it can.
std::optional<std::string> FeatureReason(const pb::NodeProto& node, int64_t opset,
                                         const std::set<std::string>& constants) {
  const std::string& op = node.op_type();
  if (NonEmptyOutputs(node) > 1 && op != "Split") {
    return "only the first output is supported (training or indices)";
  }
  if (op == "Constant") return ConstantReason(node);
  if (op == "Conv" || op == "MaxPool" || op == "AveragePool" || op == "QLinearConv" ||
      op == "ConvTranspose") {
    if (op == "ConvTranspose" && FindAttr(node, "output_shape") != nullptr) {
      return "output_shape; only explicit pads are supported";
    }
    return KernelReason(node);
  }
  if (auto reason = NewOpReason(node, opset, constants)) return reason;
  if (op == "Pad") {
    const pb::AttributeProto* mode = FindAttr(node, "mode");
    if (mode != nullptr && mode->s() != "constant") {
      return fmt::format("mode '{}'; only 'constant' is supported", mode->s());
    }
  }
  if (op == "BatchNormalization") {
    const pb::AttributeProto* training = FindAttr(node, "training_mode");
    if (training != nullptr && training->i() != 0) return "training_mode=1";
  }
  if (op == "Clip") {
    if (auto in = ComputedInput(node, 1, constants)) {
      return fmt::format("bound '{}' is computed; only constant min/max are supported", *in);
    }
  }
  if (op == "Dropout" && node.input_size() > 2 && !node.input(2).empty()) {
    return "a training_mode input; only inference Dropout (an identity) is supported";
  }
  if ((op == "Squeeze" || op == "Unsqueeze") && opset >= 13) {
    if (auto in = ComputedInput(node, 1, constants)) {
      return fmt::format("axes '{}' are computed; only constant axes are supported", *in);
    }
  }
  return std::nullopt;
}

}  // namespace

StatusOr<OpsetMap> ReadOpsets(const pb::ModelProto& model) {
  OpsetMap opsets;
  for (const pb::OperatorSetIdProto& id : model.opset_import()) {
    opsets[IsDefaultDomain(id.domain()) ? "" : id.domain()] = id.version();
  }
  auto it = opsets.find("");
  if (it == opsets.end()) {
    return InvalidArgument("the model imports no opset of the default ONNX domain (ai.onnx)");
  }
  if (it->second < kMinOpset || it->second > kMaxOpset) {
    return Unimplemented(
        fmt::format("the model uses ONNX opset {}; supported: {} to {} (convert "
                    "it with onnx.version_converter or re-export)",
                    it->second, kMinOpset, kMaxOpset));
  }
  return opsets;
}

std::string NodeName(const pb::NodeProto& node, int index) {
  return node.name().empty() ? fmt::format("{}_{}", node.op_type(), index) : node.name();
}

std::string NodeLabel(const pb::NodeProto& node, int index) {
  return fmt::format("node '{}' ({})", NodeName(node, index), node.op_type());
}

Status CheckSupported(const pb::GraphProto& graph, const OpsetMap& opsets,
                      const std::set<std::string>& constants) {
  std::vector<std::string> lines;
  for (int i = 0; i < graph.node_size(); ++i) {
    const pb::NodeProto& node = graph.node(i);
    const std::string domain = IsDefaultDomain(node.domain()) ? "" : node.domain();
    auto opset = opsets.find(domain);
    std::optional<std::string> reason;
    if (!domain.empty()) {
      reason = "only the default ONNX domain is supported";
    } else if (FindOp(node.op_type()) == nullptr) {
      reason = "op not supported";
    } else {
      reason = FeatureReason(node, opset->second, constants);
    }
    if (!reason) continue;
    lines.push_back(fmt::format(
        "  node '{}' (op {}, domain {}, opset {}): {}", NodeName(node, i), node.op_type(),
        domain.empty() ? "ai.onnx" : domain,
        opset == opsets.end() ? "not imported" : std::to_string(opset->second), *reason));
  }
  if (lines.empty()) return Status::Ok();
  return Unimplemented(fmt::format("graph '{}' has {} unsupported node{}:\n{}", graph.name(),
                                   lines.size(), lines.size() == 1 ? "" : "s",
                                   fmt::join(lines, "\n")));
}

std::vector<std::string_view> SupportedOpTypes() {
  std::vector<std::string_view> types;
  for (const OpSupport& op : kOps) types.push_back(op.op_type);
  return types;
}

std::optional<ir::OpKind> ImportedKind(std::string_view op_type) {
  if (op_type == "Dropout") return ir::OpKind::kIdentity;
  return FindOp(op_type) != nullptr ? ir::OpKindFromOnnx(op_type) : std::nullopt;
}

std::optional<std::string_view> OnnxOpType(ir::OpKind kind) {
  for (const OpSupport& op : kOps) {
    if (ir::OpKindFromOnnx(op.op_type) == kind) return op.op_type;
  }
  return std::nullopt;
}

Status CheckArity(const pb::GraphProto& graph, int64_t opset) {
  for (int i = 0; i < graph.node_size(); ++i) {
    const pb::NodeProto& node = graph.node(i);
    const OpSupport* op = FindOp(node.op_type());
    NPU_CHECK(op != nullptr);  // CheckSupported ran first
    int min_in = op->min_inputs, max_in = op->max_inputs;
    const bool axes_input = node.op_type() == "Squeeze" || node.op_type() == "Unsqueeze" ||
                            node.op_type() == "ReduceSum" || node.op_type() == "Split";
    if (axes_input && opset < 13) min_in = max_in = 1;          // an attribute before opset 13
    if (node.op_type() == "Resize" && opset < 13) min_in = 3;   // roi and scales required
    if (node.op_type() == "Dropout" && opset < 12) max_in = 1;  // ratio is an attribute before 12
    const int n = node.input_size();
    if (n < min_in || n > max_in) {
      const std::string expected = min_in == max_in ? std::to_string(min_in)
                                   : max_in == kAny ? fmt::format("at least {}", min_in)
                                                    : fmt::format("{} to {}", min_in, max_in);
      return InvalidArgument(fmt::format("{} has {} inputs; {} at opset {} takes {}",
                                         NodeLabel(node, i), n, node.op_type(), opset, expected));
    }
    for (int k = 0; k < min_in; ++k) {
      if (node.input(k).empty()) {
        return InvalidArgument(
            fmt::format("{}: required input {} is empty", NodeLabel(node, i), k));
      }
    }
    if (node.output_size() == 0 || node.output(0).empty()) {
      return InvalidArgument(fmt::format("{} has no output", NodeLabel(node, i)));
    }
  }
  return Status::Ok();
}

}  // namespace npu::compiler::onnx_detail
