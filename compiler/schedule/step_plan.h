// The loop nest of a tiling, flattened into steps (one CONV each), with the buffer slot every
// operand tile occupies and whether it must be loaded or is still resident from an earlier
// step. Both the emitter and the tiler's estimate walk these steps, so they agree on reuse.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "compiler/tiling/conv_tiling.h"
#include "compiler/tiling/sram_plan.h"
#include "compiler/tiling/tile_grid.h"

namespace npu::compiler {

struct SlotUse {
  uint32_t slot = 0;
  bool load = false;  // the tile is not in the slot yet
};

// Slot assignment for one operand buffer. A resident buffer gives each distinct tile its own
// slot. A double buffer reuses a slot that still holds the tile, and otherwise loads into the
// slot the previous step did not use, so the load overlaps the CONV reading the other one.
class SlotCache {
 public:
  SlotCache(uint32_t slots, bool resident);
  SlotUse Acquire(uint64_t key);

 private:
  uint32_t slots_;
  bool resident_;
  std::unordered_map<uint64_t, uint32_t> resident_slot_;
  std::vector<int64_t> held_;  // key in each slot, -1 if empty
  uint32_t last_ = 1;          // slot the previous step used
};

// One batch index of a batched layer (ConvLayer::batches): where its input, output and
// activation weights b start, in bytes from the layer's operand places; and which input and
// weight matrices it reads: equal ids are the same matrix (a broadcast), so a tile still in a
// slot is not loaded again.
struct ConvBatch {
  uint64_t input_offset = 0, output_offset = 0, b_offset = 0;
  uint32_t input_id = 0, weight_id = 0;
};
// Batch i at its own consecutive dense input, output and b, ids i.
std::vector<ConvBatch> ConsecutiveBatches(const ConvLayer& layer);

struct ConvStep {
  uint32_t batch = 0;       // index into the layer's batches
  uint32_t sp = 0, oc = 0;  // tile indices
  uint32_t ic = 0;          // reduction step: input-channel tile x kernel block (TileGrid)
  uint64_t group = 0;       // index of the (sp, oc) output tile in execution order
  bool first_ic = false, last_ic = false;
  SlotUse input, weights;
  SlotUse params;  // acquired on the first ic step (load there), read by ACT on the last
  uint32_t acc_slot = 0, out_slot = 0;
};

// Calls `visit` for each step in execution order: batch by batch (`batches`, one per
// ConvLayer::batches), each the loop nest of the tiling.
void ForEachStep(const TileGrid& grid, const ConvTiling& tiling, const SramPlan& plan,
                 const std::vector<ConvBatch>& batches,
                 const std::function<void(const ConvStep&)>& visit);

}  // namespace npu::compiler
