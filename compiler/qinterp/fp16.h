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
#include <unordered_map>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/qinterp/qinterp.h"
#include "hw/spec/status.h"

namespace npu::compiler::qinterp {

// True if the graph's inputs and every node's output are f16 (an FP16 graph); CheckQuantizedGraph
// and InterpretQuantized then apply the rules below.
bool IsFp16Graph(const ir::Graph& graph);

// Activations f16 without quantisation parameters; kFusedConv (x, w f16 OHWI, b f32 [O]; group;
// fp16_clamp_min/max FP16 bit patterns), kGemm (x [..., K], w f16 [N, K], b f32 [N], transB 1,
// clamps), kMaxPool / kAveragePool / kGlobalAveragePool, kAdd of two f16 values of one shape
// (fp16_relu 0 or 1), and the views; anything else is Unimplemented.
Status CheckFp16Graph(const ir::Graph& graph);

// Mixed int8 and FP16 graphs (docs/quantized-ir.md, "Mixed int8 and FP16"): int8 inputs, some
// nodes FP16 (f16 output), values converted by kDequantizeLinear (x i8 -> f16,
// spec::DequantizeToFp16 of x - zero point and the scale) and kQuantizeLinear (x f16 -> i8 with
// the output's parameters: clamp(zero point + spec::QuantizeFp16(x, Fp16InverseScale(scale)))).
// CheckQuantizedGraph checks an FP16 node with CheckFp16Node, a conversion with
// CheckConversionNode; InterpretQuantized runs them with RunFp16Node and RunConversionNode.
Status CheckFp16Node(const ir::Node& n);
// An f16 activation: no quantisation parameters, batch 1, no empty dim, 4-D ones NHWC.
Status CheckFp16Activation(const ir::Tensor& t);
Status CheckConversionNode(const ir::Node& n);
// y: the output's bytes (2 per element for f16), sized here. `values`: every computed value the
// node may read, as bytes.
using ByteValues = std::unordered_map<const ir::Tensor*, std::vector<int8_t>>;
void RunFp16Node(const ir::Node& n, const ByteValues& values, std::vector<int8_t>& y);
void RunConversionNode(const ir::Node& n, const ByteValues& values, std::vector<int8_t>& y);

// Runs a graph that passed CheckFp16Graph; `inputs` hold 2 bytes per element.
StatusOr<std::vector<std::vector<int8_t>>> InterpretFp16(
    const ir::Graph& graph, const std::vector<std::vector<int8_t>>& inputs,
    const QInterpretOptions& options = {});

}  // namespace npu::compiler::qinterp
