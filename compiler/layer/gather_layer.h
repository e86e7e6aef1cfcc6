// One gather the DMA engines do: the output, dense, is a strided selection of the input's bytes
// whose innermost dim is contiguous in the input, so both sides move runs of bytes. Transposes
// that keep the innermost axis innermost (attention's head split [S, H, D] -> [H, S, D], a
// transposed convolution's depth-to-space) and slices whose innermost step is one (crops, every
// other row) are gathers. One that would move single bytes is left to the control core.
//
// It is described after merging: the output's dims, outermost first, each with its stride in the
// input in bytes, and the input offset of the first element; dims of one are dropped and
// neighbours contiguous in the input too merge, so the last dim is the run (input stride 1). The
// output is cut into rows (one run each) and lines (one step of every dim but the last two;
// `LineBytes` is the last two dims' bytes); a chunk is a range of rows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/spec/status.h"

namespace npu::compiler {

struct GatherLayer {
  std::string name;
  std::vector<uint64_t> dims;        // merged output dims, outermost first, at least two
  std::vector<uint64_t> in_strides;  // each dim's stride in the input, bytes; the last is 1
  uint64_t in_offset = 0;            // bytes from the input's start to the first element

  uint64_t Elements() const;
  uint64_t LineBytes() const { return dims[dims.size() - 2] * dims.back(); }
  uint64_t Lines() const { return Elements() / LineBytes(); }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// Runs longer than this are cut (the innermost dim split in two), so that two rows fit the
// smallest SRAM a config may have.
inline constexpr uint64_t kMaxGatherRun = 1024;

// One output dim before merging: `count` steps of `stride` input bytes.
struct GatherDim {
  uint64_t count = 1, stride = 0;
};

// The merged layer; nullopt when the innermost dim (of more than one element) is not contiguous
// in the input, or when a run longer than kMaxGatherRun has no divisor of at least 64 to cut it.
std::optional<GatherLayer> GatherOf(const std::string& name, const std::vector<GatherDim>& dims,
                                    uint64_t in_offset);

// A dense int8 tensor of `shape` transposed by `perm` (output dim d is input dim perm[d]).
std::optional<GatherLayer> TransposeOf(const std::string& name, const std::vector<uint64_t>& shape,
                                       const std::vector<int64_t>& perm);

// A slice of a dense int8 tensor of `shape`: per dim its start and (positive) step, and the
// output's `out_shape`.
std::optional<GatherLayer> SliceOf(const std::string& name, const std::vector<uint64_t>& shape,
                                   const std::vector<int64_t>& starts,
                                   const std::vector<int64_t>& steps,
                                   const std::vector<uint64_t>& out_shape);

// Whether `perm` moves only dims of one: the bytes keep their order (a view, not a transpose).
bool KeepsMemoryOrder(const std::vector<uint64_t>& shape, const std::vector<int64_t>& perm);

// At least two dims, none zero, the last with input stride 1; the error names the layer.
Status CheckGatherLayer(const GatherLayer& layer);

}  // namespace npu::compiler
