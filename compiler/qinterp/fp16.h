// FP16 graphs (docs/quantized-ir.md, "FP16 graphs"): the checker and the reference interpreter
// the platform's FP16 programs are compared with bit for bit. Values are FP16 elements, 2 bytes
// each (little-endian), held in the same int8 buffers as quantised values; the arithmetic is
// docs/fp16-semantics.md's, through hw/spec/fp16.h (the rounding primitives, which
// tests/spec/fp16_test.cc checks against independent sums). A convolution's or Gemm's output
// is its exact sum of products rounded once to FP32 (the compiler never splits an FP16
// reduction over several CONVs), plus the FP32 bias, rounded to FP16 and clamped: so the result
// does not depend on the tiling or the array.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/qinterp/qinterp.h"
#include "hw/spec/status.h"

namespace npu::compiler::qinterp {

// True if the graph's inputs are f16 (an FP16 graph); CheckQuantizedGraph and
// InterpretQuantized then apply the rules below.
bool IsFp16Graph(const ir::Graph& graph);

// Activations f16 without quantisation parameters; kFusedConv (x, w f16 OHWI, b f32 [O]; group;
// fp16_clamp_min/max FP16 bit patterns), kGemm (x [..., K], w f16 [N, K], b f32 [N], transB 1,
// clamps), kMaxPool / kAveragePool / kGlobalAveragePool, kAdd of two f16 values of one shape
// (fp16_relu 0 or 1), and the views; anything else is Unimplemented.
Status CheckFp16Graph(const ir::Graph& graph);

// Runs a graph that passed CheckFp16Graph; `inputs` hold 2 bytes per element.
StatusOr<std::vector<std::vector<int8_t>>> InterpretFp16(
    const ir::Graph& graph, const std::vector<std::vector<int8_t>>& inputs,
    const QInterpretOptions& options = {});

}  // namespace npu::compiler::qinterp
