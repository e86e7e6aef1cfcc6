// Lowers a logical strided copy between DRAM and SRAM to DMA descriptors that fit the ISA's
// fields: contiguous dimensions merge into long runs (fewer, longer bursts), runs of 64 KiB or
// more split, and counts above 65535 chunk. A LOAD may scatter its runs' bytes in SRAM
// (sram_elem_stride): a channel shuffle's permutation.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/layer/copy_layer.h"
#include "compiler/schedule/tensor_place.h"
#include "hw/spec/isa.h"

namespace npu::compiler {

// n2 x n1 runs of run_bytes; 64-bit so the caller never has to worry about field widths. Byte k
// of a run is k*sram_elem_stride from the run's SRAM address (0, 1: contiguous; LOAD only).
struct StridedCopy {
  uint64_t dram_offset = 0, sram_addr = 0;
  uint64_t run_bytes = 0;
  uint64_t n1 = 1, n2 = 1;
  uint64_t dram_stride1 = 0, dram_stride2 = 0;
  uint64_t sram_stride1 = 0, sram_stride2 = 0;
  uint64_t sram_elem_stride = 0;
};

inline constexpr uint64_t kMaxRunBytes = 65535;  // run_bytes is a 16-bit field
inline constexpr uint64_t kMaxCount = 65535;     // n1, n2 are 16-bit fields

StridedCopy ContiguousCopy(uint64_t dram_offset, uint64_t sram_addr, uint64_t bytes);

// An HWC sub-block [rows][cols][channels] of an HWC tensor `tensor_w` x `tensor_c` at
// `dram_offset` (the block's first byte), copied to/from dense SRAM at `sram_addr`. `channels`
// and `tensor_c` are bytes: an FP16 tensor's are twice its channels. With steps, the block's
// rows are every row_step-th row of the tensor and its columns every col_step-th column (a
// subsampled input: tile_grid.h).
StridedCopy HwcBlockCopy(uint64_t dram_offset, uint64_t sram_addr, uint64_t rows, uint64_t cols,
                         uint64_t channels, uint64_t tensor_w, uint64_t tensor_c,
                         uint64_t row_step = 1, uint64_t col_step = 1);

// Elements [offset, offset + count) of the flattened HWC tensor of `c` channels at `place` in
// DRAM (place.element_bytes each), copied to/from dense SRAM at `sram_addr`. A place that is a channel slice of a wider
// tensor (place.channels > c) takes a chunk of whole pixels or a part of one pixel.
StridedCopy ElementsCopy(const TensorPlace& place, uint64_t c, uint64_t offset, uint64_t count,
                         uint64_t sram_addr);

// Pixels [pixel, pixel + pixels) of the copy `l`'s input at `place` in DRAM, LOADed
// channel-shuffled in l.group groups into dense SRAM at `sram_addr`: input channel
// i*l.GroupStride() + l.group_offset + j of a pixel lands at channel j*group + i. The runs are
// each group's l.c/group channels of a pixel (n1 the pixels, n2 the groups), scattered `group`
// bytes apart.
StridedCopy ShuffledPixelsCopy(const TensorPlace& place, const CopyLayer& l, uint64_t pixel,
                               uint64_t pixels, uint64_t sram_addr);

// Descriptors moving exactly the bytes of `copy`. Addresses are not range-checked here: the
// encoder rejects what does not fit.
std::vector<spec::DmaArgs> LowerCopy(const StridedCopy& copy);

}  // namespace npu::compiler
