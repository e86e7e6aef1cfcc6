// Where a tiling's operand buffers live in SRAM and in the accumulator buffer. Each buffer is a
// run of equal slots sized for its largest tile: two slots to double-buffer, or one per distinct
// tile when the tiling keeps that operand resident.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/conv_tiling.h"
#include "compiler/tiling/tile_grid.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler {

struct SlotBuffer {
  uint64_t base = 0;
  uint64_t slot_bytes = 0;  // entries for the accumulator
  uint32_t slots = 0;
  uint64_t Addr(uint32_t slot) const { return base + slot * slot_bytes; }
  uint64_t end() const { return base + slots * slot_bytes; }
};

struct SramPlan {
  SlotBuffer weights, inputs, params, outputs;  // SRAM, bytes
  SlotBuffer acc;                               // accumulator buffer, int32 entries
  uint64_t sram_bytes = 0;                      // end of the last SRAM buffer
  uint64_t acc_entries = 0;
};

// Distinct tiles of each operand, which resident buffers need one slot for.
uint64_t DistinctInputTiles(const TileGrid& grid);
uint64_t DistinctWeightTiles(const TileGrid& grid);
uint64_t OutputGroups(const TileGrid& grid);  // (spatial tile, oc tile) pairs

// Lays the buffers out with every base and slot size a multiple of `align_bytes`.
SramPlan PlanSram(const TileGrid& grid, const ConvTiling& tiling, uint32_t align_bytes);

// The plan with the largest alignment (SRAM stripe, bank word, byte) that fits the config; an
// error naming the bytes needed if not even the byte-aligned plan fits SRAM or the accumulator.
StatusOr<SramPlan> FitSram(const spec::NpuConfig& config, const TileGrid& grid,
                           const ConvTiling& tiling);

std::string ToString(const SramPlan& plan);

}  // namespace npu::compiler
