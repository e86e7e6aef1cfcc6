// Every front-end pass: a free function over the graph that returns an error only for a graph it
// cannot handle; "nothing to do" is success. pipeline.cc lists them in order. docs/ir.md says
// what each guarantees afterwards.
#pragma once

#include "compiler/ir/graph.h"
#include "compiler/passes/pass_context.h"
#include "hw/spec/status.h"

namespace npu::compiler::passes {

// Sets every node output's dtype, shape and layout from the op rules (compiler/interp), computing
// small int64 shape expressions (Shape -> Gather -> Concat -> Reshape) along the way.
Status InferShapes(ir::Graph& graph, PassContext& ctx);
// Re-runs the rules and fails, naming the node, where a stored type disagrees.
Status VerifyShapes(const ir::Graph& graph);

// Replaces nodes whose inputs are all constants (and Shape of a known shape) by their value.
Status FoldConstants(ir::Graph& graph, PassContext& ctx);
// Removes nodes whose outputs nobody reads, and constants nobody reads.
Status EliminateDeadCode(ir::Graph& graph, PassContext& ctx);
// Bypasses no-ops: Identity, Reshape/Flatten/Squeeze/Unsqueeze to the same shape, identity
// Transpose, zero Pad, single-input Concat, unbounded Clip.
Status EliminateIdentity(ir::Graph& graph, PassContext& ctx);
// 1-D Conv/pools/BatchNorm/GlobalAveragePool on [N,C,L] become 2-D ones on [N,C,1,L].
Status Canonicalize1D(ir::Graph& graph, PassContext& ctx);
// torch's ReduceMean-Sub-Pow-ReduceMean-Add-Sqrt-Div[-Mul-Add] -> LayerNormalization.
Status RecognizeLayerNorm(ir::Graph& graph, PassContext& ctx);
// Reshape [N,g,C/g,H,W] - Transpose [0,2,1,3,4] - Reshape [N,C,H,W] -> ChannelShuffle {group}.
Status RecognizeChannelShuffle(ir::Graph& graph, PassContext& ctx);
// ReduceMean over axes {2,3} of a 4-D tensor -> GlobalAveragePool (+ Reshape if keepdims=0).
Status ReduceMeanToGlobalPool(ir::Graph& graph, PassContext& ctx);
// A constant Pad of H/W into the Conv / AveragePool / MaxPool reading it, where exact.
Status FoldPad(ir::Graph& graph, PassContext& ctx);
// Folds BatchNormalization into the preceding Conv when the conv's output has no other user.
Status FoldBatchNorm(ir::Graph& graph, PassContext& ctx);
// A BatchNormalization left after fold-batchnorm -> depthwise 1x1 Conv.
Status BatchNormToConv(ir::Graph& graph, PassContext& ctx);
// Mul/Add by a per-output-channel constant into the Conv / Gemm / MatMul(+bias) before it.
Status FoldScaleBias(ir::Graph& graph, PassContext& ctx);
// Conv [+ per-channel Add] [+ Relu | Clip(0, 6)] -> FusedConv {activation}; every Conv becomes a
// FusedConv.
Status FuseConvActivation(ir::Graph& graph, PassContext& ctx);
// Add + Relu | Clip(0, 6) -> FusedAdd {activation}.
Status FuseAddActivation(ir::Graph& graph, PassContext& ctx);
// Converts the 4-D activations to NHWC (the NPU's layout), with transposes only where the
// graph's inputs or outputs, or ops that need the original order, meet the converted region.
Status ConvertLayoutNHWC(ir::Graph& graph, PassContext& ctx);

}  // namespace npu::compiler::passes
