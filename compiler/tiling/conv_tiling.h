// A tiling decision for one ConvLayer: output tile sizes, the loop order over tiles, and which
// operand buffers keep every tile resident instead of double-buffering. Pure data; tile_grid.h
// derives the geometry, sram_plan.h the buffers, tiling_search.h chooses one.
#pragma once

#include <cstdint>
#include <string>

namespace npu::compiler {

// The loop nest over tiles. The input-channel loop is always innermost, so one output tile's
// partial sums finish in the accumulator before the vector unit drains it.
enum class LoopOrder : uint8_t {
  kSpatialOuter,  // for spatial tile: for oc tile: for ic tile (inputs reused across oc tiles)
  kChannelOuter,  // for oc tile: for spatial tile: for ic tile (weights reused across space)
};

// Constants held in SRAM across the strips of a fused layer group (the network compiler's
// choice): every strip of one node has the same weights and ACT records, so the first strip
// LOADs them once into a region that stays until the last strip, and the others read them there.
// A held tiling keeps weights and params resident; their buffers are that region, not scratch.
enum class HeldConstants : uint8_t {
  kNone,
  kLoads,   // the first strip: LOADs every weight tile and record into the held region
  kReuses,  // a later strip: reads them there, no LOAD
};

struct ConvTiling {
  uint32_t tile_oh = 1;  // output rows per tile
  uint32_t tile_ow = 1;  // output columns per tile
  uint32_t tile_oc = 1;  // output channels per tile
  uint32_t tile_ic = 1;  // input channels per CONV (partial sums accumulate over ic tiles)
  LoopOrder order = LoopOrder::kSpatialOuter;
  // A resident buffer holds every distinct tile of its operand, so each is loaded exactly once;
  // otherwise the operand is double-buffered (two slots, a tile still in a slot is reused).
  bool inputs_resident = false;
  bool weights_resident = false;
  bool params_resident = false;
  // The layer's input or output is a tensor kept in SRAM between layers (the network compiler's
  // choice, not the search's): CONV reads the input in place and ACT writes the output in place,
  // so there is no buffer and no DMA for it. In-place input tiles are whole-width row bands of
  // every input channel (the tensor is dense HWC); in-place output tiles are whole-width row
  // bands or single rows.
  bool input_on_chip = false;
  bool output_on_chip = false;
  // An on-chip input that is a channel block of a wider tensor (a prefix of a concatenation kept
  // on chip): its pixel stride, in elements; 0 for a dense input. Only DWCONV reads such pixels
  // (its in_pixel_stride), so such a tiling is on_vector.
  uint32_t input_pixel_stride = 0;
  // A depthwise layer on the vector unit's depthwise datapath (act.depthwise_taps): one DWCONV
  // per tile instead of CONV + ACT, leaving the MAC array to the layers around it
  // (CheckVectorDepthwise, tiling_search.h, says when it can).
  bool on_vector = false;
  HeldConstants held = HeldConstants::kNone;
  // A strided 1x1 convolution's input in DRAM (CanSubsampleInput, tile_grid.h): each tile LOADs
  // only the pixels its windows read, every stride-th row and column, into a dense tile that
  // CONV reads with stride 1; otherwise the tile spans the rows and columns between them too (a
  // stride-2 downsampling reads four times the pixels it uses).
  bool subsampled_input = false;

  bool operator==(const ConvTiling&) const = default;
};

std::string_view LoopOrderName(LoopOrder order);

// "tile 8x56x64 ic=64 order=spatial-outer resident=weights,params", plus " in=sram"/" out=sram"
// for on-chip activations, " unit=vector" on the depthwise datapath and " held=load"/
// " held=reuse" for held constants and " in=subsampled", for LayerInfo.tiling.
std::string ToString(const ConvTiling& tiling);

}  // namespace npu::compiler
