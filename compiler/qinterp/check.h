// The quantised-IR checker: does a graph follow docs/quantized-ir.md? The quantiser's output must
// pass it, the integer interpreter refuses graphs that do not, and the lowering can rely on it:
// after CheckQuantizedGraph(g).ok(), every tensor, attribute and shape the contract names is
// present and in range.
#pragma once

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::qinterp {

// Checks, failing with the first problem (naming the node, tensor and value):
//   - ir::Verify (structure, every tensor typed);
//   - activations (graph inputs, node outputs, non-constant operands): i8, one scale (positive,
//     finite) and one zero point in [-128, 127]; 4-D ones NHWC with batch 1; 2-D ones [1, K];
//   - graph outputs are activations;
//   - per op (kFusedConv, kGemm, kMaxPool, kAveragePool, kGlobalAveragePool, kAdd, kFusedAdd,
//     kFlatten, kReshape, kIdentity; anything else is Unimplemented): operand kinds and types,
//     weights i8 symmetric per output channel (OHWI [O][kh][kw][I/group]; weight_bits 8, or 4
//     with every weight in [-8, 7]), bias i32 [O], shapes
//     consistent with the attributes, attributes present and in range, reductions of at most 65535
//     terms, max pool and views keeping their input's quantisation.
Status CheckQuantizedGraph(const ir::Graph& graph);

// The per-tensor parameters of an activation, if `t` is one (i8, one finite positive scale, one
// zero point in [-128, 127]). Shared with the interpreter and host I/O.
Status CheckActivationParams(const ir::Tensor& t);

}  // namespace npu::compiler::qinterp
