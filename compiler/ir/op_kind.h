// The operations of the graph IR. Float ops follow ONNX semantics and attribute names (docs/ir.md);
// the fused and quantised ops that passes introduce are documented there too. Add a kind here,
// in kOpNames (op_kind.cc), and its shape rule and interpreter kernel.
#pragma once

#include <optional>
#include <string_view>

namespace npu::compiler::ir {

enum class OpKind {
  // ONNX-like float ops.
  kConv,                // X, W[, B] -> Y   kernel_shape strides pads dilations group
  kBatchNormalization,  // X, scale, B, mean, var -> Y   epsilon
  kRelu,
  kClip,  // X -> Y   min max (attributes, after import)
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMaxPool,      // kernel_shape strides pads dilations ceil_mode
  kAveragePool,  // kernel_shape strides pads count_include_pad ceil_mode
  kGlobalAveragePool,
  kFlatten,  // axis
  kReshape,  // X, shape(i64 constant) -> Y
  kGemm,     // A, B[, C] -> Y   alpha beta transA transB
  kMatMul,
  kConcat,  // axis
  kIdentity,
  kTranspose,  // perm
  kSoftmax,    // axis
  kShape,
  kGather,     // axis
  kUnsqueeze,  // axes
  kSqueeze,    // axes
  kPad,        // X, pads(i64)[, value] -> Y   mode (constant only)
  // Unary float ops (ONNX semantics; attributes alpha/beta where ONNX has them).
  kSigmoid,
  kHardSigmoid,  // alpha beta
  kHardSwish,
  kTanh,
  kErf,
  kExp,
  kLog,
  kSqrt,
  kReciprocal,
  kNeg,
  kAbs,
  kLeakyRelu,  // alpha
  kElu,        // alpha
  kSoftplus,
  kPow,  // X, Y (broadcasting) -> Z
  kMax,  // X1..Xn (broadcasting) -> Y
  kMin,
  kReduceMean,  // axes keepdims noop_with_empty_axes (attributes, after import)
  kReduceSum,
  kReduceMax,
  kSlice,   // X, starts, ends[, axes[, steps]] (i64) -> Y
  kSplit,   // X -> Y1..Yn   axis split (attributes, after import)
  kResize,  // X, [roi], [scales f32], [sizes i64] -> Y   mode coordinate_transformation_mode ...
  kLayerNormalization,  // X, scale[, B] -> Y   axis epsilon
  kConvTranspose,       // X, W[, B] -> Y   kernel_shape strides pads dilations output_padding group
  kExpand,              // X, shape(i64) -> Y
  kConstantOfShape,     // shape(i64) -> Y   value (float or int attribute: the output's type)
  kCast,                // X -> Y   to (ONNX TensorProto data type)
  kRange,               // start, limit, delta (scalars) -> Y
  // ONNX quantised ops, as imported; passes fold them into the int8 forms of the ops above.
  kQuantizeLinear,    // X, scale, zero_point -> Y   axis
  kDequantizeLinear,  // X, scale, zero_point -> Y   axis
  kQLinearConv,       // x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp[, B] -> y
  kQLinearMatMul,     // a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp -> y
  // Introduced by passes.
  kFusedConv,       // conv + bias + optional ReLU/ReLU6: attrs as kConv plus activation
  kFusedAdd,        // add + optional ReLU: attr activation
  kChannelShuffle,  // X -> Y   group: out channel j*group+i = in channel i*(C/group)+j
  // Quantised only (docs/quantized-ir.md).
  kLut,  // x i8 -> y i8   table (256 ints): y = table[x + 128]
  // A global average pool over row strips (row_strips.h): each strip's kPoolSum adds its pixels
  // to the sums of the strips before, and kPoolMean takes the mean once all are in.
  kPoolSum,   // x i8 [1,H,W,C][, sums i32 [1,1,1,C]] -> sums i32 [1,1,1,C]: sums + sum of x - zp
  kPoolMean,  // sums i32 [1,1,1,C] -> y i8 [1,1,1,C]   window (h, w), multiplier shift clamps
};

std::string_view OpName(OpKind kind);                         // "conv", "batch_normalization", ...
std::optional<OpKind> OpKindFromName(std::string_view name);  // "conv" -> kConv
std::optional<OpKind> OpKindFromOnnx(std::string_view op_type);  // "Conv" -> kConv

// The unary float ops of one input (kSigmoid .. kSoftplus above): one kernel, one type rule.
bool IsUnaryMath(OpKind kind);
// Ops computing each output element from the same element of their (broadcast) inputs: ReLU,
// Clip, the unary math ops, Add Sub Mul Div Pow Max Min and FusedAdd. Layout passes move them
// freely; the quantiser can fold chains of them into one lookup table.
bool IsElementwise(OpKind kind);

}  // namespace npu::compiler::ir
