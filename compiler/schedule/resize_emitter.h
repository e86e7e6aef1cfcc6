// Emits the instruction stream of a RESIZE layer (tiling/resize_tiling.h) and packs the taps
// constant it reads. Per band of output rows and block of columns (outer) and block of channels
// (inner): the tile's taps (LOADed once per layer, or per band and column block), a LOAD of the
// input window unless the input is on chip (then read in place), RESIZE, and the STORE of its
// result unless the output is on chip (then written in place). Token masks are left empty:
// dependencies.h derives them from the footprints.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/layer/resize_layer.h"
#include "compiler/schedule/tensor_place.h"
#include "compiler/tiling/resize_tiling.h"
#include "hw/spec/isa.h"

namespace npu::compiler {

struct ResizeOperands {
  TensorPlace input, output;  // whole tensors
  uint64_t taps = 0;          // DRAM offset of the layer's taps constant (PackResizeTaps)
};

// The taps constant: the row taps (out_h), then the column taps (out_w), each as RESIZE reads it
// (hw/spec/resize.h) relative to the window of its band or column block under `tiling`, so every
// tile's taps are one run of each table and RESIZE's indices stay inside its region.
std::vector<uint8_t> PackResizeTaps(const ResizeLayer& layer, const ResizeTiling& tiling);
uint64_t ResizeTapsBytes(const ResizeLayer& layer);  // (out_h + out_w) * kResizeTapBytes

std::vector<spec::Instruction> EmitResize(const ResizeLayer& layer, const ResizeTiling& tiling,
                                          const VectorPlan& plan, const ResizeOperands& operands);

}  // namespace npu::compiler
