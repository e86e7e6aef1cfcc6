// The type rule and kernel of every op, one pair per op family; op_semantics.cc maps OpKinds to
// them. Internal to compiler/interp. docs/ir.md is the specification they implement.
#pragma once

#include "compiler/interp/op_util.h"

namespace npu::compiler::interp {

// conv.cc: kConv, kFusedConv
StatusOr<Types> ConvRule(const ir::Node& node, Inputs in);
Status ConvKernel(const ir::Node& node, Inputs in, Outputs out);
// pool.cc: kMaxPool, kAveragePool, kGlobalAveragePool
StatusOr<Types> PoolRule(const ir::Node& node, Inputs in);
Status MaxPoolKernel(const ir::Node& node, Inputs in, Outputs out);
Status AveragePoolKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> GlobalAveragePoolRule(const ir::Node& node, Inputs in);
Status GlobalAveragePoolKernel(const ir::Node& node, Inputs in, Outputs out);
// normalization.cc: kBatchNormalization, kSoftmax
StatusOr<Types> BatchNormRule(const ir::Node& node, Inputs in);
Status BatchNormKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> SoftmaxRule(const ir::Node& node, Inputs in);
Status SoftmaxKernel(const ir::Node& node, Inputs in, Outputs out);
// elementwise.cc: kRelu, kClip, kIdentity; kAdd, kSub, kMul, kDiv, kFusedAdd
StatusOr<Types> UnaryRule(const ir::Node& node, Inputs in);
Status ReluKernel(const ir::Node& node, Inputs in, Outputs out);
Status ClipKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> BinaryRule(const ir::Node& node, Inputs in);
Status BinaryKernel(const ir::Node& node, Inputs in, Outputs out);
// unary.cc: kSigmoid .. kSoftplus (type rule: UnaryRule)
Status UnaryKernel(const ir::Node& node, Inputs in, Outputs out);
// (elementwise.cc also: kPow, kMax, kMin with BinaryRule / BinaryKernel)
// reduce.cc: kReduceMean, kReduceSum, kReduceMax
StatusOr<Types> ReduceRule(const ir::Node& node, Inputs in);
Status ReduceKernel(const ir::Node& node, Inputs in, Outputs out);
// slice_split.cc: kSlice, kSplit
StatusOr<Types> SliceRule(const ir::Node& node, Inputs in);
Status SliceKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> SplitRule(const ir::Node& node, Inputs in);
Status SplitKernel(const ir::Node& node, Inputs in, Outputs out);
// resize.cc: kResize
StatusOr<Types> ResizeRule(const ir::Node& node, Inputs in);
Status ResizeKernel(const ir::Node& node, Inputs in, Outputs out);
// normalization.cc: kLayerNormalization
StatusOr<Types> LayerNormRule(const ir::Node& node, Inputs in);
Status LayerNormKernel(const ir::Node& node, Inputs in, Outputs out);
// conv_transpose.cc: kConvTranspose
StatusOr<Types> ConvTransposeRule(const ir::Node& node, Inputs in);
Status ConvTransposeKernel(const ir::Node& node, Inputs in, Outputs out);
// shape_values.cc: kExpand, kConstantOfShape, kRange, kCast
StatusOr<Types> ExpandRule(const ir::Node& node, Inputs in);
Status ExpandKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> ConstantOfShapeRule(const ir::Node& node, Inputs in);
Status ConstantOfShapeKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> RangeRule(const ir::Node& node, Inputs in);
Status RangeKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> CastRule(const ir::Node& node, Inputs in);
Status CastKernel(const ir::Node& node, Inputs in, Outputs out);
// channel_shuffle.cc: kChannelShuffle
StatusOr<Types> ChannelShuffleRule(const ir::Node& node, Inputs in);
Status ChannelShuffleKernel(const ir::Node& node, Inputs in, Outputs out);
// matmul.cc: kGemm, kMatMul
StatusOr<Types> GemmRule(const ir::Node& node, Inputs in);
Status GemmKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> MatMulRule(const ir::Node& node, Inputs in);
Status MatMulKernel(const ir::Node& node, Inputs in, Outputs out);
// shape_ops.cc: ops that only reinterpret the shape (values copied unchanged), and kShape
StatusOr<Types> FlattenRule(const ir::Node& node, Inputs in);
StatusOr<Types> ReshapeRule(const ir::Node& node, Inputs in);
StatusOr<Types> SqueezeRule(const ir::Node& node, Inputs in);
StatusOr<Types> UnsqueezeRule(const ir::Node& node, Inputs in);
Status CopyKernel(const ir::Node& node, Inputs in, Outputs out);  // also kIdentity
StatusOr<Types> ShapeRule(const ir::Node& node, Inputs in);
Status ShapeKernel(const ir::Node& node, Inputs in, Outputs out);
// gather_concat.cc: kGather, kConcat
StatusOr<Types> GatherRule(const ir::Node& node, Inputs in);
Status GatherKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> ConcatRule(const ir::Node& node, Inputs in);
Status ConcatKernel(const ir::Node& node, Inputs in, Outputs out);
// transpose_pad.cc: kTranspose, kPad
StatusOr<Types> TransposeRule(const ir::Node& node, Inputs in);
Status TransposeKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> PadRule(const ir::Node& node, Inputs in);
Status PadKernel(const ir::Node& node, Inputs in, Outputs out);
// quantize.cc: kQuantizeLinear, kDequantizeLinear, kQLinearConv, kQLinearMatMul
StatusOr<Types> QuantizeLinearRule(const ir::Node& node, Inputs in);
Status QuantizeLinearKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> DequantizeLinearRule(const ir::Node& node, Inputs in);
Status DequantizeLinearKernel(const ir::Node& node, Inputs in, Outputs out);
StatusOr<Types> QLinearConvRule(const ir::Node& node, Inputs in);
StatusOr<Types> QLinearMatMulRule(const ir::Node& node, Inputs in);
Status QLinearKernel(const ir::Node& node, Inputs in, Outputs out);

}  // namespace npu::compiler::interp
