// The constant data a compiled layer carries in DRAM: weights packed in tile order and the ACT
// parameter records with the input zero point folded into the bias.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/tile_grid.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// Weight tiles at TileGrid::WeightTileOffsets(), each [oc][kh][kw][ic] of its tile and kernel
// block, so that one tile is one contiguous LOAD and is exactly CONV's weight operand. Empty for
// activation weights (LOADed from the activation).
std::vector<uint8_t> PackWeights(const ConvLayer& layer, const TileGrid& grid);

// bias[n] - input_zero_point * sum(weights[n]): the hardware multiplies raw inputs (padding reads
// the zero point itself), so subtracting the zero point's share here makes the accumulator plus
// bias equal the reference's sum of (x - zp) * w plus bias. Fails, naming the layer and channel,
// if the folded bias does not fit int32. With activation weights, bias[n] as it is (CONV subtracts
// the input zero point itself).
StatusOr<int32_t> FoldedBias(const ConvLayer& layer, uint32_t channel);

// [out_c] records {folded bias, multiplier, shift}, spec::WriteActParams layout.
StatusOr<std::vector<uint8_t>> PackActParams(const ConvLayer& layer);

}  // namespace npu::compiler
