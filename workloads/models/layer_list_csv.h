// Reads the two layer-list formats other accelerator simulators take, so that the same list
// runs here and there (docs/topologies.md):
//
//   SCALE-Sim topology:  Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width,
//                        Channels, Num Filter, Strides,
//   GEMM list:           Layer, M, N, K,          (C[M, N] = A[M, K] x B[K, N])
//
// The header picks the format (case and spaces around fields ignored; "Layer name" and "Layer"
// both accepted). SCALE-Sim ends every line with a comma; one trailing comma is allowed, not
// needed. Blank lines are skipped. Every error names the file, the line and the field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hw/spec/status.h"

namespace npu::workloads {

// A convolution without padding: ofmap = (ifmap - filter) / stride + 1 in each direction.
struct ConvRow {
  int64_t ifmap_h, ifmap_w, filter_h, filter_w, channels, filters, stride;
  int64_t OfmapH() const { return (ifmap_h - filter_h) / stride + 1; }
  int64_t OfmapW() const { return (ifmap_w - filter_w) / stride + 1; }
};

struct GemmRow {
  int64_t m, n, k;
};

struct LayerRow {
  std::string name;
  int line = 0;  // 1-based, in the file
  std::variant<ConvRow, GemmRow> shape;
};

// Every size field is at most this (SCALE-Sim's own topologies stay far below).
inline constexpr int64_t kMaxLayerDim = 65536;
// The inputs, weights and outputs of the whole list, in elements: no config's DRAM (a 32-bit
// size) holds more as int8. The pipeline then checks the config's own DRAM (CheckFitsDram).
inline constexpr int64_t kMaxListElements = int64_t{1} << 32;

// MACs as SCALE-Sim counts them: ofmap pixels x filter taps x channels x filters, or M x N x K.
int64_t LayerMacs(const LayerRow& row);

// The rows of `text`, the contents of the file `path` (named in errors). InvalidArgument for
// an unknown header, a missing or extra field, a size that is not a positive integer or is
// above kMaxLayerDim, a filter larger than its ifmap, a reduction (filter taps x channels, or
// K) above compiler::kMaxReduction, a name that is empty, repeated or not
// [A-Za-z0-9_-]+, no rows, or a list above kMaxListElements.
StatusOr<std::vector<LayerRow>> ParseLayerList(std::string_view text, std::string_view path);

}  // namespace npu::workloads
