// Counts over a typed graph: multiply-accumulates (what "1.8 GMACs" means for resnet18) and
// nodes per op. For reports and tests; needs inferred shapes.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "compiler/ir/graph.h"

namespace npu::compiler::passes {

// MACs of Conv/FusedConv/QLinearConv (output elements x Cin/group x KH x KW), Gemm (M x N x K)
// and MatMul/QLinearMatMul (output elements x K). Other ops count 0.
int64_t CountMacs(const ir::Graph& graph);

// Op name -> number of nodes, e.g. {"fused_conv": 20, "gemm": 1}.
std::map<std::string, int64_t> CountOps(const ir::Graph& graph);

}  // namespace npu::compiler::passes
