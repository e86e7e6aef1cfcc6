// Lowering: the quantised graph IR (docs/quantized-ir.md) -> the NPU's layers (network.h).
//
//   StatusOr<Network> net = LowerGraph(quantized_graph);
//
// Each op becomes what the hardware runs: FusedConv -> CONV+ACT (depthwise when group == in ==
// out channels, one convolution per group otherwise); Gemm -> a 1x1 convolution of a 1x1xK
// input; MaxPool / AveragePool / GlobalAveragePool -> POOL (a global pool wider than POOL's 8-bit
// kernel field is re-viewed as an equal-area plane that fits, which changes nothing for an
// average); Add / FusedAdd -> ELTWISE add (EltwiseLayer); Flatten / Reshape / Identity -> views
// (no instructions).
// Decompositions are recorded in NetLayer::note. Ops the NPU cannot run give one Unimplemented
// error listing every such node; malformed nodes give InvalidArgument naming the node.
#pragma once

#include "compiler/ir/graph.h"
#include "compiler/lower/network.h"
#include "hw/spec/status.h"

namespace npu::compiler {

StatusOr<Network> LowerGraph(const ir::Graph& quantized);

}  // namespace npu::compiler
