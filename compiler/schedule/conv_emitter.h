// Emits the instruction stream of one tiled ConvLayer: its table first if it has one (once); per
// step, the LOADs of operand tiles that are not resident (a weight tile of activation weights is
// a strided block of the activation b), one CONV; per output tile, one ACT and the STOREs. An input
// or output kept in SRAM (ConvTiling::input_on_chip/output_on_chip) is read or written in place
// instead. Token masks are left empty: dependencies.h derives them from the footprints afterwards.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "compiler/schedule/step_plan.h"
#include "compiler/schedule/tensor_place.h"
#include "compiler/tiling/conv_tiling.h"
#include "compiler/tiling/sram_plan.h"
#include "hw/spec/isa.h"

namespace npu::compiler {

// Where the layer's operands live. Constants are DRAM offsets (relocated later).
struct ConvOperands {
  uint64_t weights = 0;  // packed per tile, see TileGrid::WeightTileOffsets()
  // Activation weights (ConvLayer::activation_weights): the in_c x out_c matrix b, in DRAM, one
  // pixel of `channels` bytes per row (a value of width in_c and out_c channels).
  TensorPlace b;
  uint64_t params = 0;     // [out_c] ACT records, channel order
  uint64_t table = 0;      // the layer's table (layer.table non-empty)
  bool load_table = true;  // false: already in the plan's table slot (another part loaded it)
  TensorPlace input;       // in SRAM iff tiling.input_on_chip
  TensorPlace output;      // in SRAM iff tiling.output_on_chip
  // A batched layer (ConvLayer::batches): where each batch's input, output and b start from the
  // places above; empty: ConsecutiveBatches.
  std::vector<ConvBatch> batches;
};

std::vector<spec::Instruction> EmitConv(const ConvLayer& layer, const ConvTiling& tiling,
                                        const SramPlan& plan, const ConvOperands& operands);

}  // namespace npu::compiler
