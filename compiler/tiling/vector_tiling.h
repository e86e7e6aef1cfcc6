// Tilings of the vector unit's layers: POOL here (whole-width bands of output rows and a channel
// tile); ELTWISE and LUT, which work on chunks of the flattened tensors, in eltwise_tiling.h.
// Operands in DRAM go through double-buffered SRAM slots; on-chip operands (TilingContext) are
// read and written in place.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/layer/pool_layer.h"
#include "compiler/tiling/sram_plan.h"
#include "compiler/tiling/tiling_search.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct PoolTiling {
  uint32_t tile_oh = 1;  // output rows per POOL (the whole output width)
  uint32_t tile_c = 1;   // channels per POOL (all of them if the input is on chip)
  bool input_on_chip = false;
  bool output_on_chip = false;
};

// SRAM slots of a vector layer: its input (POOL, LUT, RESIZE) or a and b (ELTWISE), the output
// (when it cannot overwrite the input's slot), and a table (LUT) or the taps (RESIZE).
struct VectorPlan {
  SlotBuffer a, b, out, table;
  uint64_t sram_bytes = 0;
  uint64_t sram_base = 0;
};
void Rebase(VectorPlan& plan, uint64_t sram_base);

std::string ToString(const PoolTiling& tiling);

// The input rows one band of POOL outputs reads (clipped; pad_before <= pad_top).
InputWindow PoolRows(const PoolLayer& layer, Span1D out_rows);

VectorPlan PlanPoolSram(const PoolLayer& layer, const PoolTiling& tiling, uint32_t align_bytes);

template <class Tiling>
struct VectorChoice {
  Tiling tiling;
  VectorPlan plan;
};

// The tiling chosen by replaying candidates with the cost model: among those within 2% of the
// fastest, the one with the shortest instructions, so the next layer can start on the first
// bands while this one continues. ResourceExhausted naming the layer and the bytes of the
// smallest tile if none fits the budget.
StatusOr<VectorChoice<PoolTiling>> ChoosePoolTiling(const spec::NpuConfig& config,
                                                    const PoolLayer& layer,
                                                    const TilingContext& context);
}  // namespace npu::compiler
