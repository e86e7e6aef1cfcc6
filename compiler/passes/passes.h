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
// Folds BatchNormalization into the preceding Conv when the conv's output has no other user.
Status FoldBatchNorm(ir::Graph& graph, PassContext& ctx);
// Conv [+ per-channel Add] [+ Relu | Clip(0, 6)] -> FusedConv {activation}; every Conv becomes a
// FusedConv.
Status FuseConvActivation(ir::Graph& graph, PassContext& ctx);
// Add + Relu | Clip(0, 6) -> FusedAdd {activation}.
Status FuseAddActivation(ir::Graph& graph, PassContext& ctx);
// Converts the 4-D activations to NHWC (the NPU's layout), with transposes only where the
// graph's inputs or outputs, or ops that need the original order, meet the converted region.
Status ConvertLayoutNHWC(ir::Graph& graph, PassContext& ctx);

}  // namespace npu::compiler::passes
