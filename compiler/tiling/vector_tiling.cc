// POOL tilings: geometry, SRAM slots, and the replayed search.
#include "compiler/tiling/vector_tiling.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/schedule/vector_emitter.h"
#include "compiler/tiling/vector_search.h"

namespace npu::compiler {
namespace {

using vector_search::Place;
using vector_search::Replayed;
using vector_search::ReplayPlace;
using vector_search::Splits;

constexpr uint32_t kMaxExtent = 4095;  // POOL in/out rows and columns: 12 bits

}  // namespace

void Rebase(VectorPlan& plan, uint64_t sram_base) {
  for (SlotBuffer* b : {&plan.a, &plan.b, &plan.out, &plan.table}) b->base += sram_base;
  plan.sram_base = sram_base;
}

std::string ToString(const PoolTiling& t) {
  return fmt::format("rows={} channels={}{}{}", t.tile_oh, t.tile_c,
                     t.input_on_chip ? " in=sram" : "", t.output_on_chip ? " out=sram" : "");
}

InputWindow PoolRows(const PoolLayer& l, Span1D out_rows) {
  return WindowFor(out_rows, l.in_h, l.stride_h, 1, l.kernel_h, l.pad_top);
}

VectorPlan PlanPoolSram(const PoolLayer& l, const PoolTiling& t, uint32_t align) {
  uint32_t rows = 0;
  const Axis bands{l.out_h, t.tile_oh};
  for (uint32_t b = 0; b < bands.count(); ++b) rows = std::max(rows, PoolRows(l, bands.At(b)).size);
  VectorPlan plan;
  uint64_t cursor = 0;
  const uint32_t tiles = bands.count() * Axis{l.channels, t.tile_c}.count();
  const uint32_t slots = std::min(2u, tiles);
  plan.a = Place(&cursor, uint64_t{rows} * l.in_w * t.tile_c * l.InElementBytes(),
                 t.input_on_chip ? 0 : slots, align);
  plan.out = Place(&cursor, uint64_t{t.tile_oh} * l.out_w * t.tile_c * l.OutElementBytes(),
                   t.output_on_chip ? 0 : slots, align);
  plan.sram_bytes = cursor;
  return plan;
}

namespace {

// Replays POOL tilings of every band height and the given channel tiles; keeps those that fit.
void TryPoolTiles(const spec::NpuConfig& c, const PoolLayer& l, const TilingContext& ctx,
                  uint64_t budget, const std::vector<uint64_t>& channel_sizes,
                  std::vector<VectorChoice<PoolTiling>>& fitting, std::vector<Replayed>& costs) {
  for (uint64_t rows : Splits(std::min(l.out_h, kMaxExtent))) {
    for (uint64_t ch : channel_sizes) {
      const PoolTiling t{uint32_t(rows), uint32_t(ch), ctx.input_on_chip, ctx.output_on_chip};
      if (PoolRows(l, {0, t.tile_oh}).size > kMaxExtent) continue;
      const auto plan =
          vector_search::FitPlan(c, budget, [&](uint32_t a) { return PlanPoolSram(l, t, a); });
      if (!plan) continue;
      uint64_t dram = 0, sram = plan->sram_bytes;
      const PoolOperands ops{
          ReplayPlace(t.input_on_chip, &dram, &sram, l.InputBytes(), l.channels,
                      uint32_t(l.InElementBytes())),
          ReplayPlace(t.output_on_chip, &dram, &sram, l.OutputBytes(), l.channels,
                      uint32_t(l.OutElementBytes()))};
      fitting.push_back({t, *plan});
      costs.push_back(vector_search::Replay(c, EmitPool(l, t, *plan, ops)));
    }
  }
}

}  // namespace

StatusOr<VectorChoice<PoolTiling>> ChoosePoolTiling(const spec::NpuConfig& c, const PoolLayer& l,
                                                    const TilingContext& ctx) {
  NPU_TRY(CheckPoolLayer(l));
  if (l.in_w > kMaxExtent || l.out_w > kMaxExtent) {
    return Unimplemented(fmt::format("layer '{}': width {}: POOL encodes at most {} columns",
                                     l.DisplayName(), std::max(l.in_w, l.out_w), kMaxExtent));
  }
  const uint64_t budget = ctx.sram_budget ? ctx.sram_budget : c.sram().size_bytes();
  std::vector<VectorChoice<PoolTiling>> fitting;
  std::vector<Replayed> costs;
  // 1. Every channel at once; 2. only if that fits no band (and the input is in DRAM), fewer.
  TryPoolTiles(c, l, ctx, budget, {l.channels}, fitting, costs);
  if (fitting.empty() && !ctx.input_on_chip) {
    TryPoolTiles(c, l, ctx, budget, Splits(l.channels), fitting, costs);
  }
  if (fitting.empty()) {
    const PoolTiling minimal{1, ctx.input_on_chip ? l.channels : 1, ctx.input_on_chip,
                             ctx.output_on_chip};
    return ResourceExhausted(fmt::format(
        "layer '{}': no tiling fits: one output row of {} channel(s), double-buffered, needs {} "
        "bytes of SRAM; {}",
        l.DisplayName(), minimal.tile_c, PlanPoolSram(l, minimal, 1).sram_bytes,
        SramAvailableText(c, ctx.sram_budget)));
  }
  return fitting[vector_search::Pick(costs)];
}

}  // namespace npu::compiler
