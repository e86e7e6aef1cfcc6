// One copy layer: the DMA engines move an NHWC int8 tensor from one place to another, through
// SRAM, without a compute unit. What makes it worth a layer is that either side may be a channel
// slice of a wider tensor (pixel stride above the copied channels): a slice that a reader cannot
// take as a view becomes dense, and an input a concatenation cannot have its producer write in
// place is copied into its slice. With a `group` above 1 the copy also permutes each pixel's
// channels, as a channel shuffle does: its LOADs scatter every group's channels `group` bytes
// apart in SRAM (docs/isa.md "load / store"), so its chunks are whole pixels.
#pragma once

#include <cstdint>
#include <string>

#include "hw/spec/status.h"

namespace npu::compiler {

struct CopyLayer {
  std::string name;
  uint32_t h = 1, w = 1, c = 1;  // NHWC shape of what is copied (batch 1)
  // Channel shuffle: output channel j*group + i is input channel i*(c/group) + j. 1: a copy.
  uint32_t group = 1;

  uint64_t Elements() const { return uint64_t{h} * w * c; }
  bool Shuffles() const { return group > 1; }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// A non-empty shape and a group dividing the channels that a LOAD can scatter by
// (spec::kMaxSramElemStride); the error names the layer.
Status CheckCopyLayer(const CopyLayer& layer);

}  // namespace npu::compiler
