// Tilings of the vector unit's layers. POOL works on whole-width bands of output rows and a
// channel tile; ADD on chunks of whole rows of the flattened tensors (elementwise, so any chunk
// of the dense NHWC bytes is a valid ADD). Operands in DRAM go through double-buffered SRAM
// slots; on-chip operands (TilingContext) are read and written in place.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/layer/add_layer.h"
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

struct AddTiling {
  uint64_t chunk = 1;  // elements per ADD: whole rows of w*c, unless one row is too long
  bool a_on_chip = false, b_on_chip = false, output_on_chip = false;
};

// SRAM slots of a vector layer: input (POOL) or a and b (ADD; the output overwrites a's slot),
// and the output (POOL).
struct VectorPlan {
  SlotBuffer a, b, out;
  uint64_t sram_bytes = 0;
  uint64_t sram_base = 0;
};
void Rebase(VectorPlan& plan, uint64_t sram_base);

std::string ToString(const PoolTiling& tiling);
std::string ToString(const AddTiling& tiling);

// The input rows one band of POOL outputs reads (clipped; pad_before <= pad_top).
InputWindow PoolRows(const PoolLayer& layer, Span1D out_rows);

VectorPlan PlanPoolSram(const PoolLayer& layer, const PoolTiling& tiling, uint32_t align_bytes);
VectorPlan PlanAddSram(const AddLayer& layer, const AddTiling& tiling, uint32_t align_bytes);

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
// For ADD, context.input_on_chip means both a and b are on chip; use the overload below for a
// mixed case.
StatusOr<VectorChoice<AddTiling>> ChooseAddTiling(const spec::NpuConfig& config,
                                                  const AddLayer& layer, AddTiling on_chip,
                                                  uint64_t sram_budget);

}  // namespace npu::compiler
