// The pieces of the NHWC layout conversion (convert_layout.cc) that look at one node or tensor:
// which ops can change layout, and how constants, axes and pads follow. Internal to passes.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/graph.h"

namespace npu::compiler::passes {

inline const std::vector<int64_t> kToNHWC = {0, 2, 3, 1};  // Transpose perm NCHW -> NHWC
inline const std::vector<int64_t> kToNCHW = {0, 3, 1, 2};  // and back

enum class Role {
  kLayoutAware,  // reads its channel axis from the layout: Conv, FusedConv, ConvTranspose, BN,
                 // pools, ChannelShuffle
  kElementwise,  // indifferent to the order, given constants permuted alike (broadcasting):
                 // unary activations, Add/Sub/Mul/Div/Pow, Max/Min
  kConcat,       // converts with its axis remapped (Concat, Split)
  kPad,          // converts with its pads permuted
  kSlice,        // converts with its constant axes remapped
  kReduce,       // converts with its axes remapped (if the kept dims' order is the same)
  kResize,       // converts with its constant scales / sizes permuted
  kKeep,         // needs the original order (Flatten, Reshape, Gemm, Softmax, Shape, ...)
};
Role RoleOf(ir::OpKind kind);

bool IsActivation4D(const ir::Tensor* t);    // a computed or input 4-D f32 tensor
bool IsNCHWActivation(const ir::Tensor* t);  // ... not already NHWC
int64_t NHWCAxis(int64_t nchw_axis);         // 1 -> 3, 2 -> 1, 3 -> 2

// A constant operand of an elementwise op, broadcast against NCHW, rewritten to broadcast the
// same way against NHWC: left-padded to rank 4, then transposed [0,2,3,1]. Shapes of all ones are
// returned unchanged.
ir::Tensor* PermutedConstant(ir::Graph& g, const ir::Tensor& c);
// Pad's pads [b0..b3, e0..e3] over NCHW dims, reordered for NHWC.
ir::Tensor* PermutedPads(ir::Graph& g, const ir::Tensor& pads);
// Resize's scales or sizes (4 values over NCHW dims), reordered for NHWC.
ir::Tensor* PermutedPerAxis(ir::Graph& g, const ir::Tensor& values);
// NCHW axes (negative ones counted from rank 4) as NHWC axes.
std::vector<int64_t> NHWCAxes(const std::vector<int64_t>& nchw_axes);
// Whether a reduction over `axes` (NCHW, keepdims=0) leaves its kept dims in the same order in
// both layouts, so that its (lower-rank) result is the same.
bool ReductionKeepsOrder(const std::vector<int64_t>& axes);

// Whether `reader` (Flatten or Reshape) gets the same result from the NHWC tensor `t` as from its
// NCHW original: the element orders coincide (H*W == 1 or C == 1) and the op does not depend on
// which dimension is which. `t` still has its NCHW shape.
bool ReadsSameOrder(const ir::Node& reader, const ir::Tensor& t);

// If `flatten` (a Flatten or Reshape) turns `t` [N,C,H,W] into [N, C*H*W] and all its readers are
// Gemm(A = its output, constant B), permutes each B's K axis from NCHW to NHWC order so that the
// flatten can read the NHWC tensor directly; returns whether it did.
bool PermuteGemmWeights(ir::Graph& g, const ir::Node& flatten, const ir::Tensor& t);

// Rewrites Transpose(Transpose(x, p), q) as Transpose(x, p o q), bypassed when that is the
// identity (q undoes p); returns how many pairs it merged.
int64_t ComposeTransposes(ir::Graph& g);

}  // namespace npu::compiler::passes
