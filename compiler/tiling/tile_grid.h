// The geometry of a tiling: which output rows, columns and channels each tile covers, which
// input region (halo included, clipped to the tensor) it reads, and the size of every operand
// tile. Edge tiles are simply smaller; nothing here assumes sizes divide evenly.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/conv_tiling.h"

namespace npu::compiler {

struct Span1D {
  uint32_t begin = 0;
  uint32_t size = 0;
};

// One tiled dimension: `extent` elements cut into tiles of `tile` (the last may be smaller).
struct Axis {
  uint32_t extent = 0;
  uint32_t tile = 1;
  uint32_t count() const { return (extent + tile - 1) / tile; }
  Span1D At(uint32_t i) const;
};

// The input rows (or columns) a run of outputs reads: [begin, begin + size) of the tensor, and
// how many padding positions lie before `begin` in the first window (CONV's pad_top/pad_left).
struct InputWindow {
  uint32_t begin = 0;
  uint32_t size = 0;
  uint32_t pad_before = 0;
};
// Requires the layer rule pad < kernel extent (CheckLayer), so the clipped window is never empty.
InputWindow WindowFor(Span1D out, uint32_t in_extent, uint32_t stride, uint32_t dilation,
                      uint32_t kernel, uint32_t pad_before);

// An input tile: rows x cols x channels, HWC-dense in SRAM.
struct InputRegion {
  InputWindow rows, cols;
  Span1D channels;
  uint64_t bytes() const { return uint64_t{rows.size} * cols.size * channels.size; }
};

// Keeps a reference to the layer, which must outlive the grid.
class TileGrid {
 public:
  TileGrid(const ConvLayer& layer, const ConvTiling& tiling);

  const Axis& oh() const { return oh_; }
  const Axis& ow() const { return ow_; }
  const Axis& oc() const { return oc_; }
  const Axis& ic() const { return ic_; }
  uint32_t spatial_count() const { return oh_.count() * ow_.count(); }
  Span1D Rows(uint32_t sp) const { return oh_.At(sp / ow_.count()); }
  Span1D Cols(uint32_t sp) const { return ow_.At(sp % ow_.count()); }

  // The input tile of step (sp, oc_tile, ic_tile): channels from the ic tile, or from the oc tile
  // for a depthwise layer (whose input channels are its output channels).
  InputRegion Input(uint32_t sp, uint32_t oc_tile, uint32_t ic_tile) const;
  // Identifies distinct input tiles (what a slot holds).
  uint64_t InputKey(uint32_t sp, uint32_t oc_tile, uint32_t ic_tile) const;
  const ConvLayer& layer() const { return layer_; }
  uint64_t WeightTileBytes(uint32_t oc_tile, uint32_t ic_tile) const;
  // Offsets of each weight tile in the packed weight blob: oc tiles outer, ic tiles inner, each
  // tile [oc][kh][kw][ic] so that one tile is one contiguous load. Index oc_tile*ic.count()+ic.
  std::vector<uint64_t> WeightTileOffsets() const;

  // The largest tile of each operand (slot sizes).
  uint64_t MaxInputTileBytes() const;
  uint64_t MaxWeightTileBytes() const;
  uint64_t MaxOutputTileBytes() const;  // int8 output, also the accumulator tile in entries
  // The largest input window per axis, e.g. to check CONV's 12-bit in_h/in_w.
  uint32_t MaxInputRows() const;
  uint32_t MaxInputCols() const;

 private:
  const ConvLayer& layer_;
  Axis oh_, ow_, oc_, ic_;  // ic_ spans WeightChannels(): a single channel if depthwise
  bool input_on_chip_ = false;
};

}  // namespace npu::compiler
