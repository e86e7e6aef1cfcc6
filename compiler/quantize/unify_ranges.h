// One range for tensors that must share quantisation parameters (docs/quantization.md): the
// inputs and output of a Concat (so a concatenation is placement, no arithmetic), and the input
// and output of every op that moves values without requantising them (max pool, views, slices,
// splits, transposes, channel shuffles, pads, resizes, gathers, reduce-max). Each such set takes
// the union of its members' calibrated ranges. Internal to compiler/quantize.
#pragma once

#include "compiler/ir/graph.h"
#include "compiler/quantize/calibrate.h"

namespace npu::compiler::quantize {

// Ops whose output keeps its (first) input's quantisation in the quantised IR.
bool KeepsQuantisation(ir::OpKind kind);

// Widens `ranges` in place: every member of a set gets the set's union. Tensors a QDQ model
// gave parameters keep theirs (the quantiser requantises where they disagree).
void UnifyRanges(const ir::Graph& float_graph, TensorRanges& ranges);

}  // namespace npu::compiler::quantize
