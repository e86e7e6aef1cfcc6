// Concatenation by placement: the convolutions and pools producing a channel concatenation's inputs
// write straight into channel slices of the concatenation's buffer (their ACTs' pixel stride is the
// concatenation's channels), so the concatenation itself moves no byte and disappears. A
// concatenation of concatenations nests (DenseNet's growing feature maps share one buffer). Row
// strips nest in it too (row_strips.h): a strip's row slice of a placed concatenation (or of a
// prefix of one) is a view at its rows, with the buffer's pixel stride, and a concatenation of
// rows (the strips' outputs) placed as a channel slice has each strip write its rows of the
// slice.
//
// A Concat (a CPU layer after lowering) over the channel axis is placed when every input is
// produced by an NPU convolution, pool or copy or by a placed concatenation, is no graph input or
// output, has no views, and is read otherwise only by NPU convolutions and pools (which read
// channel slices from DRAM); the buffer stays in SRAM only where every reader reads it whole, or
// copies its slices (residency, docs/network-compiler.md). An input that fails this gets a copy
// layer (copy_layer.h) writing it into its slice, before the concatenation, or right after the
// layer writing the input if a global pool reads it too (a channel group's pooled output:
// channel_groups.h), and the concatenation is placed on a second pass; the copy is the fused
// group's that wrote the input, if any (NetLayer::placement_copy). A concatenation along an
// outer axis (only ones before it: a batch of images) needs no striding: each input is a
// contiguous range of the output, written by whatever produces it. Others stay CPU layers.
#pragma once

#include "compiler/lower/network.h"

namespace npu::compiler {

// Places what it can; returns how many concatenations it placed (also Network::concats_placed).
int PlaceConcats(Network& network);

}  // namespace npu::compiler
