// Tile geometry.
#include "compiler/tiling/tile_grid.h"

#include <fmt/format.h>

#include <algorithm>

#include "hw/spec/int4.h"

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
  const char* held = t.held == HeldConstants::kLoads    ? " held=load"
                     : t.held == HeldConstants::kReuses ? " held=reuse"
                                                        : "";
  return fmt::format("tile {}x{}x{} ic={} order={} resident={}{}{}{}{}{}", t.tile_oh, t.tile_ow,
                     t.tile_oc, t.tile_ic, LoopOrderName(t.order), resident,
                     t.input_on_chip ? " in=sram" : "", t.subsampled_input ? " in=subsampled" : "",
                     t.output_on_chip ? " out=sram" : "", t.on_vector ? " unit=vector" : "", held);
}

Span1D Axis::At(uint32_t i) const {
  const uint32_t begin = i * tile;
  return {begin, std::min(tile, extent - begin)};
}

InputWindow WindowFor(Span1D out, uint32_t in_extent, uint32_t stride, uint32_t dilation,
                      uint32_t kernel, int64_t offset) {
  // 1. The unclipped span of the windows, in tensor coordinates (may start before 0).
  const int64_t span = int64_t{out.size - 1} * stride + int64_t{kernel - 1} * dilation + 1;
  const int64_t first = int64_t{out.begin} * stride - offset;
  const int64_t last = first + span - 1;
  // 2. Clip to the tensor; what is cut at the front becomes CONV padding, what is cut at the
  //    back lies beyond the region and reads pad_value by itself.
  const int64_t begin = std::max<int64_t>(first, 0);
  const int64_t end = std::min<int64_t>(last + 1, in_extent);
  if (end > begin) {
    return {static_cast<uint32_t>(begin), static_cast<uint32_t>(end - begin),
            static_cast<uint32_t>(begin - first)};
  }
  // 3. Only padding: the nearest real row, with every tap before it.
  return {first < 0 ? 0 : in_extent - 1, 1, static_cast<uint32_t>(span)};
}

namespace {

// Taps per block on one kernel axis: the whole kernel if CONV encodes it, one tap if the
// dilation is too large, else runs of 15.
uint32_t BlockStep(uint32_t kernel, uint32_t dilation) {
  if (kernel <= kMaxConvField && dilation <= kMaxConvField) return kernel;
  return dilation > kMaxConvField ? 1 : kMaxConvField;
}

// The largest input window of an axis's tiles. Full tiles whose windows start inside the tensor
// all span the same rows until the end clips them, so it is enough to look at the tiles whose
// windows start in the padding, the first one after them, and the last two.
uint32_t MaxWindow(const Axis& axis, uint32_t in_extent, uint32_t stride, uint32_t dilation,
                   uint32_t kernel, int64_t offset) {
  const uint32_t count = axis.count();
  auto size = [&](uint32_t i) {
    return WindowFor(axis.At(i), in_extent, stride, dilation, kernel, offset).size;
  };
  uint32_t best = 0, i = 0;
  for (; i < count; ++i) {
    best = std::max(best, size(i));
    if (int64_t{axis.At(i).begin} * stride >= offset) break;  // starts inside the tensor
  }
  for (uint32_t j = std::max(i + 1, count < 2 ? 0 : count - 2); j < count; ++j) {
    best = std::max(best, size(j));
  }
  return best;
}

// The largest pad_before of an axis's tiles: those starting in the padding and those lying
// entirely past the tensor.
uint32_t MaxPad(const Axis& axis, uint32_t in_extent, uint32_t stride, uint32_t dilation,
                uint32_t kernel, int64_t offset) {
  uint32_t best = 0;
  for (uint32_t i = 0; i < axis.count(); ++i) {
    if (int64_t{axis.At(i).begin} * stride >= offset) break;
    best = std::max(best,
                    WindowFor(axis.At(i), in_extent, stride, dilation, kernel, offset).pad_before);
  }
  for (uint32_t i = axis.count(); i-- > 0;) {
    if (int64_t{axis.At(i).begin} * stride - offset < in_extent) break;
    best = std::max(best,
                    WindowFor(axis.At(i), in_extent, stride, dilation, kernel, offset).pad_before);
  }
  return best;
}

}  // namespace

KernelBlocking::KernelBlocking(const ConvLayer& l)
    : kernel_h_(l.kernel_h),
      kernel_w_(l.kernel_w),
      step_h_(BlockStep(l.kernel_h, l.dilation_h)),
      step_w_(BlockStep(l.kernel_w, l.dilation_w)),
      rows_((l.kernel_h + step_h_ - 1) / step_h_),
      cols_((l.kernel_w + step_w_ - 1) / step_w_) {}

KernelBlock KernelBlocking::At(uint32_t i) const {
  const uint32_t h0 = i / cols_ * step_h_, w0 = i % cols_ * step_w_;
  return {h0, std::min(step_h_, kernel_h_ - h0), w0, std::min(step_w_, kernel_w_ - w0)};
}

bool CanSubsampleInput(const ConvLayer& l) {
  const bool inside = l.OutH() > 0 && l.OutW() > 0 &&
                      uint64_t{l.OutH() - 1} * l.stride_h < l.in_h &&
                      uint64_t{l.OutW() - 1} * l.stride_w < l.in_w;
  return l.kernel_h == 1 && l.kernel_w == 1 && (l.stride_h > 1 || l.stride_w > 1) &&
         l.pad_top == 0 && l.pad_left == 0 && !l.activation_weights && inside;
}

TileGrid::TileGrid(const ConvLayer& layer, const ConvTiling& t)
    : layer_(layer),
      oh_{layer.OutH(), t.tile_oh},
      ow_{layer.OutW(), t.tile_ow},
      oc_{layer.out_c, t.tile_oc},
      ic_{layer.WeightChannels(), t.tile_ic},
      blocks_(layer),
      input_on_chip_(t.input_on_chip),
      subsampled_(t.subsampled_input) {}

InputWindow TileGrid::RowWindow(Span1D rows, const KernelBlock& b) const {
  const ConvLayer& l = layer_;
  if (subsampled_) return {rows.begin * l.stride_h, rows.size, 0, l.stride_h};
  return WindowFor(rows, l.in_h, l.stride_h, l.dilation_h, b.h,
                   int64_t{l.pad_top} - int64_t{b.h0} * l.dilation_h);
}

InputWindow TileGrid::ColWindow(Span1D cols, const KernelBlock& b) const {
  const ConvLayer& l = layer_;
  if (subsampled_) return {cols.begin * l.stride_w, cols.size, 0, l.stride_w};
  return WindowFor(cols, l.in_w, l.stride_w, l.dilation_w, b.w,
                   int64_t{l.pad_left} - int64_t{b.w0} * l.dilation_w);
}

Span1D TileGrid::TileInputChannels(uint32_t oc_tile, uint32_t r) const {
  if (layer_.depthwise) return oc_.At(oc_tile);
  if (layer_.groups > 1) {
    const Span1D oc = oc_.At(oc_tile);
    const uint32_t ng = layer_.GroupOutputs(), cg = layer_.WeightChannels();
    return {oc.begin / ng * cg, oc.size / ng * cg};
  }
  return InputChannels(r);
}

InputRegion TileGrid::Input(uint32_t sp, uint32_t oc_tile, uint32_t r) const {
  const KernelBlock b = Block(r);
  InputRegion region{RowWindow(Rows(sp), b), ColWindow(Cols(sp), b), TileInputChannels(oc_tile, r),
                     layer_.ElementBytes()};
  // An on-chip input is read in place: whole rows of the dense HWC tensor, whatever the windows
  // need of them (the columns they skip are simply not read).
  if (input_on_chip_) region.cols.size = layer_.in_w;
  return region;
}

uint64_t TileGrid::InputKey(uint32_t sp, uint32_t oc_tile, uint32_t r) const {
  const uint64_t blocks = blocks_.count();
  return InputPerOcTile() ? (uint64_t{sp} * oc_.count() + oc_tile) * blocks + r % blocks
                          : uint64_t{sp} * reductions() + r;
}

uint64_t TileGrid::WeightTileRowValues(uint32_t r) const {
  const KernelBlock b = Block(r);
  return uint64_t{b.h} * b.w * InputChannels(r).size;
}

uint64_t TileGrid::WeightTileRowBytes(uint32_t r) const {
  const uint64_t row = WeightTileRowValues(r);
  return layer_.weights_int4 ? spec::Int4RowBytes(row) : row * layer_.ElementBytes();
}

uint64_t TileGrid::WeightTileBytes(uint32_t oc_tile, uint32_t r) const {
  return uint64_t{oc_.At(oc_tile).size} * WeightTileRowBytes(r);
}

uint64_t TileGrid::WeightBytes() const {
  // Each tile is its output channels' rows: the channels of every tile times every reduction's
  // row (tiling estimates ask for it per candidate, and a small array has tens of thousands of
  // tiles: resnet50's layer4 on 8x8).
  uint64_t channels = 0, row_bytes = 0;
  for (uint32_t o = 0; o < oc_.count(); ++o) channels += oc_.At(o).size;
  for (uint32_t r = 0; r < reductions(); ++r) row_bytes += WeightTileRowBytes(r);
  return channels * row_bytes;
}

std::vector<uint64_t> TileGrid::WeightTileOffsets() const {
  std::vector<uint64_t> offsets;
  offsets.reserve(uint64_t{oc_.count()} * reductions());
  uint64_t offset = 0;
  for (uint32_t o = 0; o < oc_.count(); ++o) {
    for (uint32_t r = 0; r < reductions(); ++r) {
      offsets.push_back(offset);
      offset += WeightTileBytes(o, r);
    }
  }
  return offsets;
}

uint32_t TileGrid::MaxInputRows() const {
  const ConvLayer& l = layer_;
  if (subsampled_) return oh_.At(0).size;
  uint32_t rows = 0;
  for (uint32_t i = 0; i < blocks_.count(); ++i) {
    const KernelBlock b = blocks_.At(i);
    rows = std::max(rows, MaxWindow(oh_, l.in_h, l.stride_h, l.dilation_h, b.h,
                                    int64_t{l.pad_top} - int64_t{b.h0} * l.dilation_h));
  }
  return rows;
}

uint32_t TileGrid::MaxInputCols() const {
  const ConvLayer& l = layer_;
  if (input_on_chip_) return l.in_w;
  if (subsampled_) return ow_.At(0).size;
  uint32_t cols = 0;
  for (uint32_t i = 0; i < blocks_.count(); ++i) {
    const KernelBlock b = blocks_.At(i);
    cols = std::max(cols, MaxWindow(ow_, l.in_w, l.stride_w, l.dilation_w, b.w,
                                    int64_t{l.pad_left} - int64_t{b.w0} * l.dilation_w));
  }
  return cols;
}

uint32_t TileGrid::MaxPadBefore() const {
  const ConvLayer& l = layer_;
  if (subsampled_) return 0;
  uint32_t pad = 0;
  for (uint32_t i = 0; i < blocks_.count(); ++i) {
    const KernelBlock b = blocks_.At(i);
    pad = std::max({pad,
                    MaxPad(oh_, l.in_h, l.stride_h, l.dilation_h, b.h,
                           int64_t{l.pad_top} - int64_t{b.h0} * l.dilation_h),
                    MaxPad(ow_, l.in_w, l.stride_w, l.dilation_w, b.w,
                           int64_t{l.pad_left} - int64_t{b.w0} * l.dilation_w)});
  }
  return pad;
}

uint64_t TileGrid::MaxInputTileBytes() const {
  return uint64_t{MaxInputRows()} * MaxInputCols() * TileInputChannels(0, 0).size *
         layer_.ElementBytes();
}

uint64_t TileGrid::MaxWeightTileBytes() const {
  uint64_t bytes = 0;
  for (uint32_t r = 0; r < blocks_.count(); ++r) bytes = std::max(bytes, WeightTileBytes(0, r));
  return bytes;
}

uint64_t TileGrid::MaxOutputTileEntries() const {
  return uint64_t{oh_.At(0).size} * ow_.At(0).size * oc_.At(0).size;
}

uint64_t TileGrid::MaxOutputTileBytes() const {
  return MaxOutputTileEntries() * layer_.ElementBytes();
}

}  // namespace npu::compiler
