// One copy layer: the DMA engines move an NHWC int8 tensor from one place to another, through
// SRAM, without a compute unit. What makes it worth a layer is that either side may be a channel
// slice of a wider tensor (pixel stride above the copied channels): a slice that a reader cannot
// take as a view becomes dense, and an input a concatenation cannot have its producer write in
// place is copied into its slice. With a `group` above 1 the copy also permutes each pixel's
// channels, as a channel shuffle does: its LOADs scatter every group's channels `group` bytes
// apart in SRAM (docs/isa.md "load / store"), so its chunks are whole pixels. A shuffle may keep
// a window of its channels (a channel slice of a shuffle's output, folded into it): the groups are
// then group_stride channels apart in the input and the copy reads group_offset channels into
// each. Between tensors both in SRAM, or with one of them there, the vector unit moves the bytes
// (strided LUTs with bypass, docs/isa.md "lut"), but for a dense, unshuffled input in SRAM copied
// to DRAM, which the STOREs read where it is (eltwise_emitter.cc, StoresStraight).
#pragma once

#include <cstdint>
#include <string>

#include "hw/spec/status.h"

namespace npu::compiler {

struct CopyLayer {
  std::string name;
  uint32_t h = 1, w = 1, c = 1;  // NHWC shape of what is copied (batch 1)
  // Channel shuffle: output channel j*group + i is input channel
  // i*GroupStride() + group_offset + j. 1: a copy.
  uint32_t group = 1;
  uint32_t group_stride = 0;  // 0: c / group, the whole shuffle
  uint32_t group_offset = 0;

  uint64_t Elements() const { return uint64_t{h} * w * c; }
  bool Shuffles() const { return group > 1; }
  uint32_t PerGroup() const { return c / group; }
  uint32_t GroupStride() const { return group_stride ? group_stride : PerGroup(); }
  // The input's channels the copy spans: a window of them is read with a shuffle's window.
  uint32_t InputChannels() const { return (group - 1) * GroupStride() + group_offset + PerGroup(); }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// A non-empty shape, a group dividing the channels that a LOAD can scatter by
// (spec::kMaxSramElemStride), and a window whose groups do not overlap; the error names the
// layer.
Status CheckCopyLayer(const CopyLayer& layer);

}  // namespace npu::compiler
