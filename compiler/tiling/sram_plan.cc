// SRAM and accumulator buffer layout.
#include "compiler/tiling/sram_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "hw/spec/isa.h"

namespace npu::compiler {
namespace {

uint64_t AlignUp(uint64_t value, uint64_t align) { return (value + align - 1) / align * align; }

// Two slots double-buffer; fewer distinct tiles need fewer slots.
uint32_t SlotCount(bool resident, uint64_t distinct) {
  return static_cast<uint32_t>(resident ? distinct : std::min<uint64_t>(2, distinct));
}

SlotBuffer Place(uint64_t* cursor, uint64_t slot_bytes, uint32_t slots, uint64_t align) {
  SlotBuffer buffer{AlignUp(*cursor, align), AlignUp(slot_bytes, align), slots};
  *cursor = buffer.end();
  return buffer;
}

}  // namespace

uint64_t DistinctInputTiles(const TileGrid& g) { return g.layer().batches * BatchInputTiles(g); }
uint64_t BatchInputTiles(const TileGrid& g) {
  const uint64_t blocks = g.blocks();
  return uint64_t{g.spatial_count()} *
         (g.InputPerOcTile() ? g.oc().count() * blocks : g.reductions());
}
uint64_t DistinctWeightTiles(const TileGrid& g) {
  return uint64_t{g.layer().batches} * g.oc().count() * g.reductions();
}
uint64_t OutputGroups(const TileGrid& g) {
  return uint64_t{g.layer().batches} * g.spatial_count() * g.oc().count();
}

bool TableInParamSlots(const ConvLayer& layer, const ConvTiling& tiling) {
  return tiling.on_vector && !layer.table.empty();
}

uint64_t ParamSlotBytes(const ConvLayer& layer, const ConvTiling& tiling, uint64_t channels) {
  return channels * spec::kActParamBytes +
         (TableInParamSlots(layer, tiling) ? spec::kLutEntries : 0);
}

namespace {

// Slot sizes and counts of a tiling, computed once for the alignments FitSram tries.
struct Buffers {
  uint64_t weight_bytes, input_bytes, param_bytes, output_bytes, acc_entries;
  uint32_t weight_slots, input_slots, param_slots, output_slots, acc_slots;
  uint32_t table_slots;
  bool held;
};

Buffers BuffersOf(const TileGrid& g, const ConvTiling& t) {
  const uint32_t outputs = SlotCount(false, OutputGroups(g));
  const bool table_slot = !g.layer().table.empty() && !TableInParamSlots(g.layer(), t);
  return {g.MaxWeightTileBytes(), g.MaxInputTileBytes(),
          ParamSlotBytes(g.layer(), t, g.oc().At(0).size), g.MaxOutputTileBytes(),
          g.MaxOutputTileEntries(),
          SlotCount(t.weights_resident, DistinctWeightTiles(g)),
          // An on-chip input or output is read or written in place: no slots.
          t.input_on_chip ? 0 : SlotCount(t.inputs_resident, DistinctInputTiles(g)),
          SlotCount(t.params_resident, g.oc().count()), t.output_on_chip ? 0 : outputs, outputs,
          table_slot ? 1u : 0u, t.held != HeldConstants::kNone};
}

SramPlan Lay(const Buffers& b, uint32_t align_bytes) {
  SramPlan plan;
  uint64_t cursor = 0, held = 0;
  plan.weights = Place(b.held ? &held : &cursor, b.weight_bytes, b.weight_slots, align_bytes);
  plan.inputs = Place(&cursor, b.input_bytes, b.input_slots, align_bytes);
  plan.params = Place(b.held ? &held : &cursor, b.param_bytes, b.param_slots, align_bytes);
  plan.held_bytes = held;
  plan.table = Place(&cursor, spec::kLutEntries, b.table_slots, align_bytes);
  plan.outputs = Place(&cursor, b.output_bytes, b.output_slots, align_bytes);
  plan.sram_bytes = cursor;
  uint64_t acc_cursor = 0;
  // Two accumulator tiles (fewer if there are fewer output tiles), whatever the output's place.
  plan.acc = Place(&acc_cursor, b.acc_entries, b.acc_slots, 1);
  plan.acc_entries = acc_cursor;
  return plan;
}

}  // namespace

SramPlan PlanSram(const TileGrid& grid, const ConvTiling& t, uint32_t align_bytes) {
  return Lay(BuffersOf(grid, t), align_bytes);
}

std::optional<SramPlan> TryFitSram(const spec::NpuConfig& config, const TileGrid& grid,
                                   const ConvTiling& tiling, uint64_t budget_bytes) {
  const uint64_t sram = budget_bytes ? budget_bytes : config.sram().size_bytes();
  const uint64_t acc = config.mac().acc_buffer_bytes() / 4;
  const uint32_t stripe = config.sram().banks() * config.sram().bank_width_bytes();
  const Buffers buffers = BuffersOf(grid, tiling);
  for (uint32_t align : {stripe, config.sram().bank_width_bytes(), 1u}) {
    const SramPlan plan = Lay(buffers, align);
    if (plan.acc_entries > acc) return std::nullopt;
    if (plan.sram_bytes <= sram) return plan;
  }
  return std::nullopt;
}

StatusOr<SramPlan> FitSram(const spec::NpuConfig& config, const TileGrid& grid,
                           const ConvTiling& tiling, uint64_t budget_bytes) {
  if (std::optional<SramPlan> plan = TryFitSram(config, grid, tiling, budget_bytes)) return *plan;
  const uint64_t acc = config.mac().acc_buffer_bytes() / 4;
  const SramPlan tight = PlanSram(grid, tiling, 1);
  if (tight.acc_entries > acc) {
    return ResourceExhausted(
        fmt::format("{} needs {} accumulator entries; the accumulator buffer holds {}",
                    ToString(tiling), tight.acc_entries, acc));
  }
  return ResourceExhausted(fmt::format("{} needs {} bytes of SRAM; {}", ToString(tiling),
                                       tight.sram_bytes, SramAvailableText(config, budget_bytes)));
}

std::string SramAvailableText(const spec::NpuConfig& config, uint64_t budget_bytes) {
  const uint64_t sram = config.sram().size_bytes();
  if (budget_bytes == 0 || budget_bytes >= sram) return fmt::format("the config has {}", sram);
  return fmt::format("the layer may use {} of the config's {}", budget_bytes, sram);
}

void Rebase(SramPlan& plan, uint64_t sram_base) {
  for (SlotBuffer* b : {&plan.weights, &plan.inputs, &plan.params, &plan.table, &plan.outputs}) {
    const bool held = plan.held_bytes > 0 && (b == &plan.weights || b == &plan.params);
    if (!held) b->base += sram_base;
  }
  plan.sram_base = sram_base;
}

void RebaseHeld(SramPlan& plan, uint64_t held_base) {
  NPU_CHECK(plan.held_bytes > 0);
  plan.weights.base += held_base;
  plan.params.base += held_base;
}

std::string ToString(const SramPlan& p) {
  auto text = [](const char* name, const SlotBuffer& b) {
    return fmt::format("{} @{} {}x{}", name, b.base, b.slots, b.slot_bytes);
  };
  return fmt::format("{}; {}; {}; {}{}; acc {}x{} entries{}", text("weights", p.weights),
                     text("inputs", p.inputs), text("params", p.params), text("outputs", p.outputs),
                     p.table.slots ? "; " + text("table", p.table) : "", p.acc.slots,
                     p.acc.slot_bytes,
                     p.held_bytes ? fmt::format("; weights and params held ({} bytes)",
                                                p.held_bytes)
                                  : "");
}

}  // namespace npu::compiler
