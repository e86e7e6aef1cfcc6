// Emits the instruction stream of one tiled ConvLayer: per step, the LOADs of operand tiles that
// are not resident, one CONV; per output tile, one ACT and the STOREs. Token masks are left
// empty: dependencies.h derives them from the footprints afterwards.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/conv_tiling.h"
#include "compiler/tiling/sram_plan.h"
#include "hw/spec/isa.h"

namespace npu::compiler {

// Where the layer's DRAM data lives, as offsets from DRAM_BASE.
struct DramPlacement {
  uint64_t weights = 0;  // packed per tile, see TileGrid::WeightTileOffsets()
  uint64_t params = 0;   // [out_c] ACT records, channel order
  uint64_t input = 0;    // NHWC
  uint64_t output = 0;   // NHWC
};

std::vector<spec::Instruction> EmitConv(const ConvLayer& layer, const ConvTiling& tiling,
                                        const SramPlan& plan, const DramPlacement& dram);

}  // namespace npu::compiler
