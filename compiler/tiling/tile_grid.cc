// Tile geometry.
#include "compiler/tiling/tile_grid.h"

#include <algorithm>

#include <fmt/format.h>

namespace npu::compiler {

std::string_view LoopOrderName(LoopOrder order) {
  return order == LoopOrder::kSpatialOuter ? "spatial-outer" : "channel-outer";
}

std::string ToString(const ConvTiling& t) {
  std::string resident;
  if (t.inputs_resident) resident += "inputs,";
  if (t.weights_resident) resident += "weights,";
  if (t.params_resident) resident += "params,";
  if (resident.empty()) resident = "none,";
  resident.pop_back();
  return fmt::format("tile {}x{}x{} ic={} order={} resident={}{}{}", t.tile_oh, t.tile_ow,
                     t.tile_oc, t.tile_ic, LoopOrderName(t.order), resident,
                     t.input_on_chip ? " in=sram" : "", t.output_on_chip ? " out=sram" : "");
}

Span1D Axis::At(uint32_t i) const {
  const uint32_t begin = i * tile;
  return {begin, std::min(tile, extent - begin)};
}

InputWindow WindowFor(Span1D out, uint32_t in_extent, uint32_t stride, uint32_t dilation,
                      uint32_t kernel, uint32_t pad_before) {
  // 1. The unclipped span of the windows, in tensor coordinates (may start before 0).
  const int64_t first = int64_t{out.begin} * stride - pad_before;
  const int64_t last =
      int64_t{out.begin + out.size - 1} * stride + int64_t{kernel - 1} * dilation - pad_before;
  // 2. Clip to the tensor; what is cut at the front becomes CONV padding, what is cut at the
  //    back lies beyond the region and reads pad_value by itself.
  const int64_t begin = std::max<int64_t>(first, 0);
  const int64_t end = std::min<int64_t>(last + 1, in_extent);
  return {static_cast<uint32_t>(begin), static_cast<uint32_t>(std::max<int64_t>(end - begin, 0)),
          static_cast<uint32_t>(begin - first)};
}

TileGrid::TileGrid(const ConvLayer& layer, const ConvTiling& t)
    : layer_(layer),
      oh_{layer.OutH(), t.tile_oh},
      ow_{layer.OutW(), t.tile_ow},
      oc_{layer.out_c, t.tile_oc},
      ic_{layer.WeightChannels(), t.tile_ic},
      input_on_chip_(t.input_on_chip) {}

InputRegion TileGrid::Input(uint32_t sp, uint32_t oc_tile, uint32_t ic_tile) const {
  const ConvLayer& l = layer_;
  InputRegion region{
      WindowFor(Rows(sp), l.in_h, l.stride_h, l.dilation_h, l.kernel_h, l.pad_top),
      WindowFor(Cols(sp), l.in_w, l.stride_w, l.dilation_w, l.kernel_w, l.pad_left),
      l.depthwise ? oc_.At(oc_tile) : ic_.At(ic_tile)};
  // An on-chip input is read in place: whole rows of the dense HWC tensor, whatever the windows
  // need of them (the columns they skip are simply not read).
  if (input_on_chip_) region.cols.size = l.in_w;
  return region;
}

uint64_t TileGrid::InputKey(uint32_t sp, uint32_t oc_tile, uint32_t ic_tile) const {
  return layer_.depthwise ? uint64_t{sp} * oc_.count() + oc_tile
                          : uint64_t{sp} * ic_.count() + ic_tile;
}

uint64_t TileGrid::WeightTileBytes(uint32_t oc_tile, uint32_t ic_tile) const {
  return uint64_t{oc_.At(oc_tile).size} * layer_.kernel_h * layer_.kernel_w * ic_.At(ic_tile).size;
}

std::vector<uint64_t> TileGrid::WeightTileOffsets() const {
  std::vector<uint64_t> offsets;
  offsets.reserve(uint64_t{oc_.count()} * ic_.count());
  uint64_t offset = 0;
  for (uint32_t o = 0; o < oc_.count(); ++o) {
    for (uint32_t i = 0; i < ic_.count(); ++i) {
      offsets.push_back(offset);
      offset += WeightTileBytes(o, i);
    }
  }
  return offsets;
}

namespace {

// The largest input window of an axis's tiles. Full tiles whose windows start inside the tensor
// all span the same rows until the end clips them, so it is enough to look at the tiles whose
// windows start in the padding, the first one after them, and the last two.
uint32_t MaxWindow(const Axis& axis, uint32_t in_extent, uint32_t stride, uint32_t dilation,
                   uint32_t kernel, uint32_t pad_before) {
  const uint32_t count = axis.count();
  auto size = [&](uint32_t i) {
    return WindowFor(axis.At(i), in_extent, stride, dilation, kernel, pad_before).size;
  };
  uint32_t best = 0, i = 0;
  for (; i < count; ++i) {
    best = std::max(best, size(i));
    if (uint64_t{axis.At(i).begin} * stride >= pad_before) break;  // starts inside the tensor
  }
  for (uint32_t j = std::max(i + 1, count < 2 ? 0 : count - 2); j < count; ++j) {
    best = std::max(best, size(j));
  }
  return best;
}

}  // namespace

uint32_t TileGrid::MaxInputRows() const {
  const ConvLayer& l = layer_;
  return MaxWindow(oh_, l.in_h, l.stride_h, l.dilation_h, l.kernel_h, l.pad_top);
}

uint32_t TileGrid::MaxInputCols() const {
  if (input_on_chip_) return layer_.in_w;
  const ConvLayer& l = layer_;
  return MaxWindow(ow_, l.in_w, l.stride_w, l.dilation_w, l.kernel_w, l.pad_left);
}

uint64_t TileGrid::MaxInputTileBytes() const {
  return uint64_t{MaxInputRows()} * MaxInputCols() *
         (layer_.depthwise ? oc_.At(0).size : ic_.At(0).size);
}

uint64_t TileGrid::MaxWeightTileBytes() const { return WeightTileBytes(0, 0); }

uint64_t TileGrid::MaxOutputTileBytes() const {
  return uint64_t{oh_.At(0).size} * ow_.At(0).size * oc_.At(0).size;
}

}  // namespace npu::compiler
