// One transpose the DMA engines do: the output, dense, holds the input's bytes in another order,
// the innermost axis kept innermost, so both sides move runs of contiguous bytes (a transpose
// moving the innermost axis would move single bytes; the control core does those). Attention's
// head split ([S, H, D] -> [H, S, D]) and a transposed convolution's depth-to-space are such
// transposes.
//
// It is described after merging: the output's dims, outermost first, and the input stride of
// each in bytes; dims of one are dropped and neighbours contiguous in the input too merge, so the
// last dim is the run (input stride 1). The output is cut into lines, each one step of every dim
// but the last two (`LineBytes` = the last two dims' bytes), and a chunk is a range of lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/spec/status.h"

namespace npu::compiler {

struct TransposeLayer {
  std::string name;
  std::vector<uint64_t> dims;        // merged output dims, outermost first, at least two
  std::vector<uint64_t> in_strides;  // each dim's stride in the input, bytes; the last is 1

  uint64_t Elements() const;
  uint64_t LineBytes() const { return dims[dims.size() - 2] * dims.back(); }
  uint64_t Lines() const { return Elements() / LineBytes(); }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// Runs longer than this are cut (the innermost dim split in two), so that two rows fit the
// smallest SRAM a config may have.
inline constexpr uint64_t kMaxTransposeRun = 1024;

// The layer for a tensor of `shape` (int8, dense) transposed by `perm` (output dim d is input dim
// perm[d]); nullopt when the innermost axis (of more than one element) moves, or when a run
// longer than kMaxTransposeRun has no divisor to cut it at of at least 64 bytes.
std::optional<TransposeLayer> TransposeOf(const std::string& name,
                                          const std::vector<uint64_t>& shape,
                                          const std::vector<int64_t>& perm);

// Whether `perm` moves only dims of one: the bytes keep their order (a view, not a transpose).
bool KeepsMemoryOrder(const std::vector<uint64_t>& shape, const std::vector<int64_t>& perm);

// At least two dims, none zero, the last with input stride 1; the error names the layer.
Status CheckTransposeLayer(const TransposeLayer& layer);

}  // namespace npu::compiler
