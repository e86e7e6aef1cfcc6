// The one map from OpKind to its type rule and kernel (a switch: no registration at static init).
#include "compiler/interp/op_semantics.h"

#include <fmt/format.h>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

struct Semantics {
  RuleFn rule;
  KernelFn kernel;
};

Semantics SemanticsOf(ir::OpKind kind) {
  using K = ir::OpKind;
  switch (kind) {
    case K::kConv:
    case K::kFusedConv:
      return {ConvRule, ConvKernel};
    case K::kBatchNormalization:
      return {BatchNormRule, BatchNormKernel};
    case K::kRelu:
      return {UnaryRule, ReluKernel};
    case K::kClip:
      return {UnaryRule, ClipKernel};
    case K::kIdentity:
      return {UnaryRule, CopyKernel};
    case K::kAdd:
    case K::kSub:
    case K::kMul:
    case K::kDiv:
    case K::kFusedAdd:
    case K::kPow:
    case K::kMax:
    case K::kMin:
      return {BinaryRule, BinaryKernel};
    case K::kSigmoid:
    case K::kHardSigmoid:
    case K::kHardSwish:
    case K::kTanh:
    case K::kErf:
    case K::kExp:
    case K::kLog:
    case K::kSqrt:
    case K::kReciprocal:
    case K::kNeg:
    case K::kAbs:
    case K::kLeakyRelu:
    case K::kElu:
    case K::kSoftplus:
      return {UnaryRule, UnaryKernel};
    case K::kReduceMean:
    case K::kReduceSum:
    case K::kReduceMax:
      return {ReduceRule, ReduceKernel};
    case K::kSlice:
      return {SliceRule, SliceKernel};
    case K::kSplit:
      return {SplitRule, SplitKernel};
    case K::kResize:
      return {ResizeRule, ResizeKernel};
    case K::kLayerNormalization:
      return {LayerNormRule, LayerNormKernel};
    case K::kConvTranspose:
      return {ConvTransposeRule, ConvTransposeKernel};
    case K::kExpand:
      return {ExpandRule, ExpandKernel};
    case K::kConstantOfShape:
      return {ConstantOfShapeRule, ConstantOfShapeKernel};
    case K::kRange:
      return {RangeRule, RangeKernel};
    case K::kCast:
      return {CastRule, CastKernel};
    case K::kChannelShuffle:
      return {ChannelShuffleRule, ChannelShuffleKernel};
    case K::kMaxPool:
      return {PoolRule, MaxPoolKernel};
    case K::kAveragePool:
      return {PoolRule, AveragePoolKernel};
    case K::kGlobalAveragePool:
      return {GlobalAveragePoolRule, GlobalAveragePoolKernel};
    case K::kFlatten:
      return {FlattenRule, CopyKernel};
    case K::kReshape:
      return {ReshapeRule, CopyKernel};
    case K::kSqueeze:
      return {SqueezeRule, CopyKernel};
    case K::kUnsqueeze:
      return {UnsqueezeRule, CopyKernel};
    case K::kGemm:
      return {GemmRule, GemmKernel};
    case K::kMatMul:
      return {MatMulRule, MatMulKernel};
    case K::kConcat:
      return {ConcatRule, ConcatKernel};
    case K::kTranspose:
      return {TransposeRule, TransposeKernel};
    case K::kSoftmax:
      return {SoftmaxRule, SoftmaxKernel};
    case K::kShape:
      return {ShapeRule, ShapeKernel};
    case K::kGather:
      return {GatherRule, GatherKernel};
    case K::kPad:
      return {PadRule, PadKernel};
    case K::kQuantizeLinear:
      return {QuantizeLinearRule, QuantizeLinearKernel};
    case K::kDequantizeLinear:
      return {DequantizeLinearRule, DequantizeLinearKernel};
    case K::kQLinearConv:
      return {QLinearConvRule, QLinearKernel};
    case K::kQLinearMatMul:
      return {QLinearMatMulRule, QLinearKernel};
    case K::kLut:  // quantised only: the integer reference (compiler/qinterp) runs them
    case K::kPoolSum:
    case K::kPoolMean:
      break;
  }
  return {nullptr, nullptr};
}

std::string Where(const ir::Node& node) {
  const std::string name = !node.name().empty()
                               ? node.name()
                               : (node.num_outputs() > 0 ? "%" + node.output(0)->name() : "?");
  return fmt::format("node '{}' ({})", name, ir::OpName(node.kind()));
}

}  // namespace

StatusOr<std::vector<TensorType>> InferOutputTypes(const ir::Node& node,
                                                   std::span<const TensorRef> inputs) {
  const Semantics s = SemanticsOf(node.kind());
  if (s.rule == nullptr) return Unimplemented(Where(node) + ": unknown op kind");
  StatusOr<Types> types = s.rule(node, inputs);
  if (!types.ok()) return types.status().WithContext(Where(node));
  if (types->size() != node.num_outputs()) {
    return InvalidArgument(fmt::format("{}: has {} outputs, the op has {}", Where(node),
                                       node.num_outputs(), types->size()));
  }
  return types;
}

Status RunKernel(const ir::Node& node, std::span<const TensorRef> inputs,
                 std::span<HostTensor> outputs) {
  const Semantics s = SemanticsOf(node.kind());
  if (s.kernel == nullptr) return Unimplemented(Where(node) + ": unknown op kind");
  return s.kernel(node, inputs, outputs).WithContext(Where(node));
}

}  // namespace npu::compiler::interp
