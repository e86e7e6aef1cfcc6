// The geometry of a tiling: which output rows, columns and channels each tile covers, which
// input region (halo included, clipped to the tensor) it reads, and the size of every operand
// tile. Edge tiles are simply smaller; nothing here assumes sizes divide evenly.
//
// What CONV cannot encode is decomposed here (docs/network-compiler.md):
//   - a kernel taller or wider than 15 (CONV's 4-bit field) is cut into kernel blocks of at most
//     15 taps; a dilation above 15 into blocks of one tap (whose dilation then does not matter);
//     each block is one more CONV accumulating into the same tile, reading the input rows that
//     block's taps see, so the reduction runs over (input-channel tile, kernel block) pairs;
//   - a stride above 15 takes one output row (column) per tile, where the stride does not matter;
//   - a window entirely in the padding reads a one-row region with every tap before it.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/conv_tiling.h"

namespace npu::compiler {

inline constexpr uint32_t kMaxConvField = 15;  // CONV kernel, stride, dilation: 4 bits
inline constexpr uint32_t kMaxConvPad = 255;   // CONV pad_top/pad_left: 8 bits

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
// the padding positions before `begin` in the first window (CONV's pad_top/pad_left). A run whose
// windows all lie in the padding gets one real row and a pad_before that puts every tap before
// it, so CONV reads only pad_value.
struct InputWindow {
  uint32_t begin = 0;
  uint32_t size = 0;
  uint32_t pad_before = 0;
  // A subsampled input (ConvTiling::subsampled_input): `size` rows from `begin` on, `step` apart
  // in the tensor, dense in the tile.
  uint32_t step = 1;
};
// `offset` = padding before the tensor minus the first tap's position (its kernel block's first
// tap times the dilation), so it may be negative.
InputWindow WindowFor(Span1D out, uint32_t in_extent, uint32_t stride, uint32_t dilation,
                      uint32_t kernel, int64_t offset);

// Taps [h0, h0 + h) x [w0, w0 + w) of the kernel: one CONV's share of the window.
struct KernelBlock {
  uint32_t h0 = 0, h = 1, w0 = 0, w = 1;
};

// How a layer's kernel is cut: blocks of `step` taps per axis (the whole kernel if CONV encodes
// it, one tap if the dilation is too large, else 15), row blocks outer.
class KernelBlocking {
 public:
  explicit KernelBlocking(const ConvLayer& layer);
  uint32_t count() const { return rows_ * cols_; }
  KernelBlock At(uint32_t i) const;

 private:
  uint32_t kernel_h_, kernel_w_, step_h_, step_w_, rows_, cols_;
};

// An input tile: rows x cols x channels, HWC-dense in SRAM, of `element_bytes` each (2: FP16).
struct InputRegion {
  InputWindow rows, cols;
  Span1D channels;
  uint64_t element_bytes = 1;
  uint64_t bytes() const { return uint64_t{rows.size} * cols.size * channels.size * element_bytes; }
};

// Whether a tile may LOAD only the input pixels its windows read (ConvTiling::subsampled_input):
// a strided 1x1 convolution (no padding, no activation weights) whose windows all lie inside the
// input, so each output pixel reads exactly one input pixel, stride apart.
bool CanSubsampleInput(const ConvLayer& layer);

// Keeps a reference to the layer, which must outlive the grid. Reduction steps r run over
// (input-channel tile r / blocks, kernel block r % blocks).
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
  const ConvLayer& layer() const { return layer_; }

  uint32_t reductions() const { return ic_.count() * blocks_.count(); }
  uint32_t blocks() const { return blocks_.count(); }
  KernelBlock Block(uint32_t r) const { return blocks_.At(r % blocks_.count()); }
  Span1D InputChannels(uint32_t r) const { return ic_.At(r / blocks_.count()); }

  // The input channels of step (oc_tile, r): the ic tile's, the oc tile's for a depthwise layer
  // (whose input channels are its output channels), the oc tile's groups' for a grouped one
  // (whose oc tiles hold whole groups and whose one ic tile is a group's channels).
  Span1D TileInputChannels(uint32_t oc_tile, uint32_t r) const;
  // True when each (spatial, oc) step reads its own input channels (depthwise and grouped).
  bool InputPerOcTile() const { return layer_.depthwise || layer_.groups > 1; }
  // The input tile of step (sp, oc_tile, r).
  InputRegion Input(uint32_t sp, uint32_t oc_tile, uint32_t r) const;
  // Identifies distinct input tiles (what a slot holds).
  uint64_t InputKey(uint32_t sp, uint32_t oc_tile, uint32_t r) const;
  // A weight tile: rows of the output channels of `oc_tile`, each of WeightTileRowValues(r)
  // weights (int4 rows packed, hw/spec/int4.h).
  uint64_t WeightTileRowValues(uint32_t r) const;
  uint64_t WeightTileRowBytes(uint32_t r) const;  // one output channel's row, packed
  uint64_t WeightTileBytes(uint32_t oc_tile, uint32_t r) const;
  uint64_t WeightBytes() const;  // every tile's, the packed constant weights in DRAM
  // Offsets of each weight tile in the packed weight blob: oc tiles outer, reduction steps
  // inner, each tile [oc][block kh][block kw][ic] so that one tile is one contiguous load.
  // Index oc_tile * reductions() + r.
  std::vector<uint64_t> WeightTileOffsets() const;

  // The largest tile of each operand (slot sizes).
  uint64_t MaxInputTileBytes() const;
  uint64_t MaxWeightTileBytes() const;
  uint64_t MaxOutputTileEntries() const;  // the accumulator tile: one per output element
  uint64_t MaxOutputTileBytes() const;    // the output tile, ElementBytes() each
  // The largest input window per axis, e.g. to check CONV's 12-bit in_h/in_w, and the largest
  // padding a CONV of this grid needs (its field has 8 bits).
  uint32_t MaxInputRows() const;
  uint32_t MaxInputCols() const;
  uint32_t MaxPadBefore() const;

 private:
  InputWindow RowWindow(Span1D rows, const KernelBlock& b) const;
  InputWindow ColWindow(Span1D cols, const KernelBlock& b) const;

  const ConvLayer& layer_;
  Axis oh_, ow_, oc_, ic_;  // ic_ spans WeightChannels(): a single channel if depthwise
  KernelBlocking blocks_;
  bool input_on_chip_ = false;
  bool subsampled_ = false;  // ConvTiling::subsampled_input
};

}  // namespace npu::compiler
