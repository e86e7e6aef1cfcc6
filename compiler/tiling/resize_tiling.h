// Tilings of RESIZE layers: bands of output rows x blocks of output columns x blocks of channels,
// one RESIZE per tile, each reading the input rows and columns its taps touch (its window).
// Operands in DRAM go through double-buffered SRAM slots; an on-chip input is read in place (a
// channel block through RESIZE's pixel stride) and an on-chip output written in place, whole
// output rows. The taps tables are loaded once per layer if they fit beside the tiles, else per
// tile; blocks of columns are the last resort and need both operands in DRAM, so a RESIZE layer
// always has a tiling with its activations in DRAM (one output value per tile fits any SRAM).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/layer/resize_layer.h"
#include "compiler/tiling/tile_grid.h"
#include "compiler/tiling/tiling_search.h"
#include "compiler/tiling/vector_tiling.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct ResizeTiling {
  uint32_t tile_oh = 1;   // output rows per RESIZE
  uint32_t tile_ow = 1;   // output columns per RESIZE (the whole width unless both are in DRAM)
  uint32_t tile_c = 1;    // channels per RESIZE
  bool taps_once = true;  // both taps tables loaded once per layer; else each tile's own taps
  bool input_on_chip = false, output_on_chip = false;
};

std::string ToString(const ResizeTiling& tiling);

// The input positions that the taps of outputs `out` read: [least index, greatest index + 1).
Span1D TapWindow(const std::vector<spec::ResizeTap>& taps, Span1D out);
// A band's input rows: its TapWindow.
Span1D ResizeRows(const ResizeLayer& layer, Span1D out_rows);
// A column block's input columns: the whole width if the block is the whole output width (so an
// on-chip input can be read in place, whole rows), else its TapWindow.
Span1D ResizeColumns(const ResizeLayer& layer, const ResizeTiling& tiling, Span1D out_cols);

// VectorPlan::a holds the input tiles, out the output tiles, table the taps.
VectorPlan PlanResizeSram(const ResizeLayer& layer, const ResizeTiling& tiling,
                          uint32_t align_bytes);

// The tiling chosen by replaying candidates with the cost model (vector_search.h), in stages,
// each tried only if the one before has no tiling that fits: 1. bands of every channel, the
// whole width, taps once; 2. blocks of channels; 3. taps per tile; 4. (both operands in DRAM)
// single output rows cut into blocks of columns. ResourceExhausted naming the layer if none fits
// (only possible with an operand on chip).
StatusOr<VectorChoice<ResizeTiling>> ChooseResizeTiling(const spec::NpuConfig& config,
                                                        const ResizeLayer& layer,
                                                        const TilingContext& context);

}  // namespace npu::compiler
