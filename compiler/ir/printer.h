// A readable text dump of a graph, for developers looking at it after any pass
// (--dump-after=PASS) and for golden tests. One line per input, constant and node:
//
//   graph small_cnn
//     input  %x: f32[1,3,32,32] NCHW
//     const  %conv1.weight: f32[16,3,3,3]
//     %c1: f32[1,16,32,32] NCHW = conv(%x, %conv1.weight, %conv1.bias) {pads=[1,1,1,1]}  # conv1
//     output %logits
#pragma once

#include <string>

#include "compiler/ir/graph.h"

namespace npu::compiler::ir {

std::string PrintGraph(const Graph& graph);

}  // namespace npu::compiler::ir
