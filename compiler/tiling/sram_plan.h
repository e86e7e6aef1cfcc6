// Where a tiling's operand buffers live in SRAM and in the accumulator buffer. Each buffer is a
// run of equal slots sized for its largest tile: two slots to double-buffer, or one per distinct
// tile when the tiling keeps that operand resident.
#pragma once

#include <cstdint>
#include <optional>
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
  SlotBuffer table;                             // one slot if the layer has a table
  SlotBuffer acc;                               // accumulator buffer, int32 entries
  uint64_t sram_bytes = 0;                      // bytes from sram_base to the end of the last one
  uint64_t sram_base = 0;                       // where the buffers start (Rebase)
  // Held constants (ConvTiling::held): weights, then params, from the held region's start
  // (RebaseHeld), outside sram_bytes. 0 if not held.
  uint64_t held_bytes = 0;
  uint64_t acc_entries = 0;
  // Accumulator slot of the first output tile: a network continues the rotation across layers
  // so a layer's first CONV does not wait for the previous layer's last ACT.
  uint32_t acc_phase = 0;
};

// A DWCONV reads its table right after its records (spec::DwConvTableAddr): a layer with a table
// on the depthwise datapath carries it in every parameter slot, and has no table slot.
bool TableInParamSlots(const ConvLayer& layer, const ConvTiling& tiling);
// A parameter slot's bytes for an oc tile of `channels`: their ACT records, then the table if
// TableInParamSlots.
uint64_t ParamSlotBytes(const ConvLayer& layer, const ConvTiling& tiling, uint64_t channels);

// Distinct tiles of each operand, which resident buffers need one slot for, over every batch
// (ConvLayer::batches; batches sharing a matrix need fewer).
uint64_t DistinctInputTiles(const TileGrid& grid);
uint64_t DistinctWeightTiles(const TileGrid& grid);
uint64_t OutputGroups(const TileGrid& grid);     // (batch, spatial tile, oc tile) triples
uint64_t BatchInputTiles(const TileGrid& grid);  // one batch's distinct input tiles

// Lays the buffers out with every base and slot size a multiple of `align_bytes`.
SramPlan PlanSram(const TileGrid& grid, const ConvTiling& tiling, uint32_t align_bytes);

// The plan with the largest alignment (SRAM stripe, bank word, byte) that fits `budget_bytes`
// (0: the whole SRAM); an error naming the bytes needed if not even the byte-aligned plan fits
// the budget or the accumulator.
StatusOr<SramPlan> FitSram(const spec::NpuConfig& config, const TileGrid& grid,
                           const ConvTiling& tiling, uint64_t budget_bytes = 0);

// "the config has N" or "the layer may use B of the config's N", for errors.
std::string SramAvailableText(const spec::NpuConfig& config, uint64_t budget_bytes);

// The same without the error message, for searches that try thousands of tilings.
std::optional<SramPlan> TryFitSram(const spec::NpuConfig& config, const TileGrid& grid,
                                   const ConvTiling& tiling, uint64_t budget_bytes);

// Moves every SRAM buffer of `plan` by `sram_base` (a stripe multiple keeps the alignment), but
// held weights and params: RebaseHeld moves those to their region at `held_base`.
void Rebase(SramPlan& plan, uint64_t sram_base);
void RebaseHeld(SramPlan& plan, uint64_t held_base);

std::string ToString(const SramPlan& plan);

}  // namespace npu::compiler
