// Layer lists: a SCALE-Sim topology or a GEMM list (layer_list_csv.h) as one float graph, so
// that run_workload compiles, runs and checks every row as a layer of its own and an architect
// can set its cycles beside another simulator's (docs/topologies.md).
//
//   StatusOr<ir::Graph> g = BuildLayerList("workloads/topologies/resnet18_convs.csv");
//
// The layers are independent, as SCALE-Sim simulates them: each row gets its own graph input
// and output. A topology row is input NCHW [1, Channels, IFMAP Height, IFMAP Width] -> Conv
// (Num Filter filters, Filter Height x Filter Width, the stride both ways, no padding, a bias);
// a GEMM row is input A [1, M, K] -> MatMul by the weights B [K, N] (the compiler runs it as a
// 1x1 convolution over M pixels: M x N x K MACs). The node and its output are named after the
// row, its input "<name>.input". Weights are seeded (ModelBuilder), inputs come from MakeInputs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::workloads {

// The seed of every list's weights.
inline constexpr uint32_t kLayerListSeed = 13;

// True if `model` names a layer list (a .csv file) rather than a built-in model.
bool IsLayerListPath(std::string_view model);

// The list in the file `path` as a typed, verified graph named after the file. The file's
// errors (ParseLayerList) name the file, line and field; a missing file or a directory is
// refused with the operating system's reason.
StatusOr<compiler::ir::Graph> BuildLayerList(const std::string& path);

}  // namespace npu::workloads
