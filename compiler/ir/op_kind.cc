// Op names: the IR's own (for dumps) and ONNX's (for import).
#include "compiler/ir/op_kind.h"

#include <array>
#include <utility>

namespace npu::compiler::ir {
namespace {

struct OpNames {
  OpKind kind;
  std::string_view ir;
  std::string_view onnx;  // empty: not an ONNX op
};

constexpr OpNames kOpNames[] = {
    {OpKind::kConv, "conv", "Conv"},
    {OpKind::kBatchNormalization, "batch_normalization", "BatchNormalization"},
    {OpKind::kRelu, "relu", "Relu"},
    {OpKind::kClip, "clip", "Clip"},
    {OpKind::kAdd, "add", "Add"},
    {OpKind::kSub, "sub", "Sub"},
    {OpKind::kMul, "mul", "Mul"},
    {OpKind::kDiv, "div", "Div"},
    {OpKind::kMaxPool, "max_pool", "MaxPool"},
    {OpKind::kAveragePool, "average_pool", "AveragePool"},
    {OpKind::kGlobalAveragePool, "global_average_pool", "GlobalAveragePool"},
    {OpKind::kFlatten, "flatten", "Flatten"},
    {OpKind::kReshape, "reshape", "Reshape"},
    {OpKind::kGemm, "gemm", "Gemm"},
    {OpKind::kMatMul, "matmul", "MatMul"},
    {OpKind::kConcat, "concat", "Concat"},
    {OpKind::kIdentity, "identity", "Identity"},
    {OpKind::kTranspose, "transpose", "Transpose"},
    {OpKind::kSoftmax, "softmax", "Softmax"},
    {OpKind::kShape, "shape", "Shape"},
    {OpKind::kGather, "gather", "Gather"},
    {OpKind::kUnsqueeze, "unsqueeze", "Unsqueeze"},
    {OpKind::kSqueeze, "squeeze", "Squeeze"},
    {OpKind::kPad, "pad", "Pad"},
    {OpKind::kSigmoid, "sigmoid", "Sigmoid"},
    {OpKind::kHardSigmoid, "hard_sigmoid", "HardSigmoid"},
    {OpKind::kHardSwish, "hard_swish", "HardSwish"},
    {OpKind::kTanh, "tanh", "Tanh"},
    {OpKind::kErf, "erf", "Erf"},
    {OpKind::kExp, "exp", "Exp"},
    {OpKind::kLog, "log", "Log"},
    {OpKind::kSqrt, "sqrt", "Sqrt"},
    {OpKind::kReciprocal, "reciprocal", "Reciprocal"},
    {OpKind::kNeg, "neg", "Neg"},
    {OpKind::kAbs, "abs", "Abs"},
    {OpKind::kLeakyRelu, "leaky_relu", "LeakyRelu"},
    {OpKind::kElu, "elu", "Elu"},
    {OpKind::kSoftplus, "softplus", "Softplus"},
    {OpKind::kPow, "pow", "Pow"},
    {OpKind::kMax, "max", "Max"},
    {OpKind::kMin, "min", "Min"},
    {OpKind::kReduceMean, "reduce_mean", "ReduceMean"},
    {OpKind::kReduceSum, "reduce_sum", "ReduceSum"},
    {OpKind::kReduceMax, "reduce_max", "ReduceMax"},
    {OpKind::kSlice, "slice", "Slice"},
    {OpKind::kSplit, "split", "Split"},
    {OpKind::kResize, "resize", "Resize"},
    {OpKind::kLayerNormalization, "layer_normalization", "LayerNormalization"},
    {OpKind::kConvTranspose, "conv_transpose", "ConvTranspose"},
    {OpKind::kExpand, "expand", "Expand"},
    {OpKind::kConstantOfShape, "constant_of_shape", "ConstantOfShape"},
    {OpKind::kCast, "cast", "Cast"},
    {OpKind::kRange, "range", "Range"},
    {OpKind::kQuantizeLinear, "quantize_linear", "QuantizeLinear"},
    {OpKind::kDequantizeLinear, "dequantize_linear", "DequantizeLinear"},
    {OpKind::kQLinearConv, "qlinear_conv", "QLinearConv"},
    {OpKind::kQLinearMatMul, "qlinear_matmul", "QLinearMatMul"},
    {OpKind::kFusedConv, "fused_conv", ""},
    {OpKind::kFusedAdd, "fused_add", ""},
    {OpKind::kChannelShuffle, "channel_shuffle", ""},
    {OpKind::kLut, "lut", ""},
    {OpKind::kPoolSum, "pool_sum", ""},
    {OpKind::kPoolMean, "pool_mean", ""},
};

}  // namespace

std::string_view OpName(OpKind kind) {
  for (const OpNames& n : kOpNames) {
    if (n.kind == kind) return n.ir;
  }
  return "?";
}

std::optional<OpKind> OpKindFromName(std::string_view name) {
  for (const OpNames& n : kOpNames) {
    if (n.ir == name) return n.kind;
  }
  return std::nullopt;
}

std::optional<OpKind> OpKindFromOnnx(std::string_view op_type) {
  for (const OpNames& n : kOpNames) {
    if (!n.onnx.empty() && n.onnx == op_type) return n.kind;
  }
  return std::nullopt;
}

bool IsUnaryMath(OpKind kind) {
  switch (kind) {
    case OpKind::kSigmoid:
    case OpKind::kHardSigmoid:
    case OpKind::kHardSwish:
    case OpKind::kTanh:
    case OpKind::kErf:
    case OpKind::kExp:
    case OpKind::kLog:
    case OpKind::kSqrt:
    case OpKind::kReciprocal:
    case OpKind::kNeg:
    case OpKind::kAbs:
    case OpKind::kLeakyRelu:
    case OpKind::kElu:
    case OpKind::kSoftplus:
      return true;
    default:
      return false;
  }
}

bool IsElementwise(OpKind kind) {
  switch (kind) {
    case OpKind::kRelu:
    case OpKind::kClip:
    case OpKind::kAdd:
    case OpKind::kSub:
    case OpKind::kMul:
    case OpKind::kDiv:
    case OpKind::kPow:
    case OpKind::kMax:
    case OpKind::kMin:
    case OpKind::kFusedAdd:
      return true;
    default:
      return IsUnaryMath(kind);
  }
}

}  // namespace npu::compiler::ir
