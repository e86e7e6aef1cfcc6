// Channel slices of a channel shuffle as windows of it. ShuffleNet's units shuffle a
// concatenation and split the result in two: as a shuffle and two slices, that is one copy of
// every channel and then another of the half no convolution reads as a view. A slice keeping
// channels [lo, hi) of a shuffle of g groups, both multiples of g, reads (hi - lo) / g channels
// from lo / g in each group of the shuffle's input: it becomes a copy layer with that window
// (CopyLayer::group_stride, group_offset) reading the shuffle's input, and a shuffle whose every
// reader became one is dropped. Each byte then moves once. Runs before PlaceSlices, on slices
// that are still CPU layers.
#pragma once

#include "compiler/lower/network.h"

namespace npu::compiler {

// Returns how many slices became windows of a shuffle.
int FoldSlicesIntoShuffles(Network& network);

}  // namespace npu::compiler
