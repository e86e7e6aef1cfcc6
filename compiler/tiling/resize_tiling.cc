// RESIZE tilings: windows, SRAM slots, and the replayed search in stages.
#include "compiler/tiling/resize_tiling.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/schedule/resize_emitter.h"
#include "compiler/tiling/vector_search.h"

namespace npu::compiler {
namespace {

using vector_search::Place;
using vector_search::Replayed;
using vector_search::ReplayPlace;
using vector_search::Splits;

}  // namespace

std::string ToString(const ResizeTiling& t) {
  return fmt::format("rows={} cols={} channels={}{}{}{}", t.tile_oh, t.tile_ow, t.tile_c,
                     t.taps_once ? "" : " taps=per-tile", t.input_on_chip ? " in=sram" : "",
                     t.output_on_chip ? " out=sram" : "");
}

Span1D TapWindow(const std::vector<spec::ResizeTap>& taps, Span1D out) {
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint32_t o = out.begin; o < out.begin + out.size; ++o) {
    lo = std::min({lo, taps[o].i0, taps[o].i1});
    hi = std::max({hi, taps[o].i0, taps[o].i1});
  }
  return {lo, hi + 1 - lo};
}

Span1D ResizeRows(const ResizeLayer& l, Span1D out_rows) { return TapWindow(l.row_taps, out_rows); }

Span1D ResizeColumns(const ResizeLayer& l, const ResizeTiling& t, Span1D out_cols) {
  if (t.tile_ow >= l.out_w) return {0, l.in_w};
  return TapWindow(l.col_taps, out_cols);
}

VectorPlan PlanResizeSram(const ResizeLayer& l, const ResizeTiling& t, uint32_t align) {
  const Axis bands{l.out_h, t.tile_oh}, blocks{l.out_w, t.tile_ow}, chans{l.channels, t.tile_c};
  uint64_t rows = 0, cols = 0;
  for (uint32_t b = 0; b < bands.count(); ++b) {
    rows = std::max<uint64_t>(rows, ResizeRows(l, bands.At(b)).size);
  }
  for (uint32_t j = 0; j < blocks.count(); ++j) {
    cols = std::max<uint64_t>(cols, ResizeColumns(l, t, blocks.At(j)).size);
  }
  const uint64_t spatial = uint64_t{bands.count()} * blocks.count();
  const uint32_t slots = static_cast<uint32_t>(std::min<uint64_t>(2, spatial * chans.count()));
  const uint64_t taps = t.taps_once ? uint64_t{l.out_h} + l.out_w : uint64_t{t.tile_oh} + t.tile_ow;
  VectorPlan plan;
  uint64_t cursor = 0;
  plan.table =
      Place(&cursor, taps * spec::kResizeTapBytes,
            t.taps_once ? 1 : static_cast<uint32_t>(std::min<uint64_t>(2, spatial)), align);
  plan.a = Place(&cursor, rows * cols * t.tile_c, t.input_on_chip ? 0 : slots, align);
  plan.out = Place(&cursor, uint64_t{t.tile_oh} * t.tile_ow * t.tile_c,
                   t.output_on_chip ? 0 : slots, align);
  plan.sram_bytes = cursor;
  return plan;
}

namespace {

// The candidates of one stage of the search (1..4, ChooseResizeTiling).
std::vector<ResizeTiling> StageCandidates(const ResizeLayer& l, const TilingContext& ctx,
                                          int stage) {
  const std::vector<uint64_t> rows = stage < 4 ? Splits(l.out_h) : std::vector<uint64_t>{1};
  const std::vector<uint64_t> cols = stage < 4 ? std::vector<uint64_t>{l.out_w} : Splits(l.out_w);
  const std::vector<uint64_t> chans =
      stage == 1 ? std::vector<uint64_t>{l.channels} : Splits(l.channels);
  std::vector<ResizeTiling> candidates;
  for (uint64_t oh : rows) {
    for (uint64_t ow : cols) {
      for (uint64_t c : chans) {
        candidates.push_back({uint32_t(oh), uint32_t(ow), uint32_t(c), stage < 3, ctx.input_on_chip,
                              ctx.output_on_chip});
      }
    }
  }
  return candidates;
}

// Replays the candidates that fit `budget`; appends them and their costs.
void TryTilings(const spec::NpuConfig& c, const ResizeLayer& l, uint64_t budget,
                const std::vector<ResizeTiling>& candidates,
                std::vector<VectorChoice<ResizeTiling>>& fitting, std::vector<Replayed>& costs) {
  for (const ResizeTiling& t : candidates) {
    const auto plan =
        vector_search::FitPlan(c, budget, [&](uint32_t a) { return PlanResizeSram(l, t, a); });
    if (!plan) continue;
    uint64_t dram = 0, sram = plan->sram_bytes;
    const ResizeOperands ops{
        ReplayPlace(t.input_on_chip, &dram, &sram, l.InputBytes(), l.channels),
        ReplayPlace(t.output_on_chip, &dram, &sram, l.OutputBytes(), l.channels),
        ReplayPlace(false, &dram, &sram, ResizeTapsBytes(l), 1).addr};
    fitting.push_back({t, *plan});
    costs.push_back(vector_search::Replay(c, EmitResize(l, t, *plan, ops)));
  }
}

}  // namespace

StatusOr<VectorChoice<ResizeTiling>> ChooseResizeTiling(const spec::NpuConfig& c,
                                                        const ResizeLayer& l,
                                                        const TilingContext& ctx) {
  NPU_TRY(CheckResizeLayer(l));
  const uint64_t budget = ctx.sram_budget ? ctx.sram_budget : c.sram().size_bytes();
  const int stages = ctx.input_on_chip || ctx.output_on_chip ? 3 : 4;
  std::vector<VectorChoice<ResizeTiling>> fitting;
  std::vector<Replayed> costs;
  for (int stage = 1; stage <= stages && fitting.empty(); ++stage) {
    TryTilings(c, l, budget, StageCandidates(l, ctx, stage), fitting, costs);
  }
  if (fitting.empty()) {
    const ResizeTiling minimal{1, l.out_w, 1, false, ctx.input_on_chip, ctx.output_on_chip};
    return ResourceExhausted(
        fmt::format("layer '{}': no tiling fits: one output row of one channel with its taps, "
                    "double-buffered, needs {} bytes of SRAM; {}",
                    l.DisplayName(), PlanResizeSram(l, minimal, 1).sram_bytes,
                    SramAvailableText(c, ctx.sram_budget)));
  }
  return fitting[vector_search::Pick(costs)];
}

}  // namespace npu::compiler
