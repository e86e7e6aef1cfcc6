// Lowering and partitioning: the quantised graph IR (docs/quantized-ir.md) -> the layers the NPU
// and the control core run (network.h).
//
//   StatusOr<Network> net = LowerGraph(quantized_graph, {});
//
// Each op becomes what the hardware runs: FusedConv -> CONV+ACT (depthwise when group == in ==
// out channels, one convolution per group otherwise); Gemm -> a 1x1 convolution of a 1x1xK
// input; MaxPool / AveragePool / GlobalAveragePool -> POOL (a global pool wider than POOL's 8-bit
// kernel field is re-viewed as an equal-area plane that fits, which changes nothing for an
// average); Add / FusedAdd -> ELTWISE add (EltwiseLayer); Resize -> RESIZE (ResizeLayer);
// LayerNormalization -> LNORM (NormLayer) where the options say the NPU has one;
// Flatten / Reshape / Identity -> views (no instructions). Decompositions are recorded in
// NetLayer::note.
//
// Partitioning (docs/cpu-fallback.md): an op with no NPU lowering, or whose NPU lowering refuses
// its form (Unimplemented), or that the options force there, becomes a CPU layer if the
// firmware has a kernel for it (hw/spec/cpu_ops.h); its reason is kept. What neither can run,
// and with the fallback off whatever would need it, gives one Unimplemented error listing every
// such node. Malformed nodes give InvalidArgument naming the node.
#pragma once

#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/lower/network.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// A node attribute (int, 1: set) the compiler's rewrites give a node whose output must never
// stay on chip (NetBuffer::in_dram): the rest of a concatenation's rows (concat_bands.h).
inline constexpr char kInDram[] = "in_dram";

struct LowerOptions {
  bool cpu_fallback = true;  // run on the control core what the NPU cannot
  std::vector<std::string> cpu_ops =
      {};  // node names or op names ("add") to run on the control core
  bool layer_norm = false;  // the NPU has a layer normaliser (act.norm_dividers > 0): LNORM
};

StatusOr<Network> LowerGraph(const ir::Graph& quantized, const LowerOptions& options = {});

}  // namespace npu::compiler
