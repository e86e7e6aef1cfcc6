// Channel slices without the control core. A slice (a CPU layer after lowering) that keeps a
// range of the channels (the last axis, step 1) and all of every other axis
//   1. becomes a view of its input, a channel slice of the input's buffer read with the buffer's
//      pixel stride, when every reader takes channel slices (convolutions, pools and copies read
//      them through DMA) and it is no graph output;
//   2. otherwise becomes a copy layer (copy_layer.h) from that view into its own dense buffer.
// Either way the input's buffer gets a pixel stride (NetBuffer::pixel_channels), so it may hold
// only values of the input's plane (no reshaped views of it), and stays in DRAM unless copies are
// the slices' only readers (their LUTs read a slice in place, layer_schedule.h CanBeOnChip). Runs
// before concat placement, which places the copies' outputs like any other producer's, and after
// FoldSlicesIntoShuffles (shuffle_windows.h). A slice of other
// axes (a crop, every other row) of a dense input becomes a DMA gather (gather_layer.h) when its
// runs are longer than one byte.
#pragma once

#include <optional>

#include "compiler/lower/network.h"

namespace npu::compiler {

// Returns how many slices became views or copies.
int PlaceSlices(Network& network);

// The first channel a slice layer (a CPU layer) keeps, if it keeps a range of the last axis and
// all of every other.
std::optional<uint32_t> ChannelSliceStart(const Network& net, const NetLayer& layer);

}  // namespace npu::compiler
