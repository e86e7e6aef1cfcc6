// The NPU's int32 accumulators hold an exact sum of at most qinterp::kMaxReduction int8 products
// (docs/integer-semantics.md). A model with a longer reduction (a convolution's kh*kw*I/group, a
// Gemm's or MatMul's K, a layer normalisation's width) cannot be quantised for it: that is the
// model's limit, found on the float graph before calibration (which can take minutes), not a
// compiler bug found after it.
#pragma once

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::quantize {

// InvalidArgument naming the first node whose reduction is too long, its length and the limit.
Status CheckReductionLimits(const ir::Graph& float_graph);

}  // namespace npu::compiler::quantize
