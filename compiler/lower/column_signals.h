// A one-dimensional network (every activation 1 x W x C: audio, time series) runs as columns:
// every activation W x 1 x C, every kernel k x 1. The bytes are the same (NHWC with one of H and
// W equal to 1), but rows are the axis the compiler bands along: a layer's tiles become bands of
// output rows (a POOL's LOAD of band k+1 overlaps its POOL of band k; one row of 3981 pixels
// could not), and the whole-width rows that on-chip tensors need are one pixel wide. The
// report's shapes say W x 1 x C. (Row strips split the quantised graph before lowering, along
// its rows, so a signal's layers are not split into strips.)
#pragma once

#include "compiler/lower/network.h"

namespace npu::compiler::lowering {

// Swaps height and width in every value and layer if every value is one row, every layer is a
// convolution, a pool, an ELTWISE, a LUT (the layers whose fields are all per axis) or a CPU
// layer, and at least one value is wider than a pixel. Returns whether it did.
bool RunSignalsAsColumns(Network& net);

}  // namespace npu::compiler::lowering
