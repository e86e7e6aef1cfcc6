// Vector-layer tilings: geometry, SRAM slots, and the replayed search.
#include "compiler/tiling/vector_tiling.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "compiler/cost/cost_model.h"
#include "compiler/schedule/dependencies.h"
#include "compiler/schedule/vector_emitter.h"
#include "hw/spec/timing_model.h"

namespace npu::compiler {
namespace {

constexpr double kNearBestVector = 1.02;
constexpr uint64_t kMaxAddCount = (1u << 24) - 1;  // ADD count: 24 bits
constexpr uint32_t kMaxExtent = 4095;              // POOL in/out rows and columns: 12 bits

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

SlotBuffer Place(uint64_t* cursor, uint64_t slot_bytes, uint32_t slots, uint64_t align) {
  SlotBuffer b{AlignUp(*cursor, align), AlignUp(slot_bytes, align), slots};
  *cursor = b.end();
  return b;
}

// ceil(extent / k) for k = 1, 2, 3, 4, 6, 9, ... and 1: a geometric spread of tile sizes.
std::vector<uint64_t> Splits(uint64_t extent) {
  std::set<uint64_t> sizes{1};
  for (uint64_t k = 1; k <= extent; k = k < 4 ? k + 1 : k * 3 / 2) {
    sizes.insert((extent + k - 1) / k);
  }
  return {sizes.begin(), sizes.end()};
}

uint64_t StripeBytes(const spec::NpuConfig& c) {
  return uint64_t{c.sram().banks()} * c.sram().bank_width_bytes();
}

// The largest alignment (stripe, bank word, byte) whose plan fits `budget`, if any.
template <class PlanFn>
std::optional<VectorPlan> FitPlan(const spec::NpuConfig& c, uint64_t budget, PlanFn plan_fn) {
  for (uint32_t align : {uint32_t(StripeBytes(c)), c.sram().bank_width_bytes(), 1u}) {
    VectorPlan plan = plan_fn(align);
    if (plan.sram_bytes <= budget) return plan;
  }
  return std::nullopt;
}

struct Replayed {
  uint64_t cycles = 0;
  uint64_t longest = 0;  // the longest single vector instruction, alone
};

Replayed Replay(const spec::NpuConfig& c, std::vector<spec::Instruction> insns) {
  AssignDependencies(insns);
  const StatusOr<CostEstimate> cost = PredictCost(c, insns, nullptr, {.exact = false});
  NPU_CHECK(cost.ok());
  Replayed r{cost->cycles, 0};
  for (const spec::Instruction& insn : insns) {
    if (insn.queue() == spec::Queue::kVector) {
      r.longest = std::max(r.longest, spec::IdealCycles(c, insn));
    }
  }
  return r;
}

// Among the replayed candidates within kNearBestVector of the fastest, the shortest longest
// instruction (then the fastest).
size_t PickVector(const std::vector<Replayed>& costs) {
  uint64_t fastest = UINT64_MAX;
  for (const Replayed& r : costs) fastest = std::min(fastest, r.cycles);
  size_t best = costs.size();
  for (size_t i = 0; i < costs.size(); ++i) {
    if (costs[i].cycles > fastest * kNearBestVector) continue;
    if (best == costs.size() || std::tie(costs[i].longest, costs[i].cycles) <
                                    std::tie(costs[best].longest, costs[best].cycles)) {
      best = i;
    }
  }
  return best;
}

// DRAM operands at 0 and after; on-chip ones in SRAM after the plan.
TensorPlace ReplayPlace(bool on_chip, uint64_t* dram, uint64_t* sram, uint64_t bytes,
                        uint32_t channels) {
  TensorPlace p{on_chip, on_chip ? *sram : *dram, channels, 0};
  (on_chip ? *sram : *dram) += AlignUp(bytes, 256);
  return p;
}

}  // namespace

void Rebase(VectorPlan& plan, uint64_t sram_base) {
  for (SlotBuffer* b : {&plan.a, &plan.b, &plan.out}) b->base += sram_base;
  plan.sram_base = sram_base;
}

std::string ToString(const PoolTiling& t) {
  return fmt::format("rows={} channels={}{}{}", t.tile_oh, t.tile_c,
                     t.input_on_chip ? " in=sram" : "", t.output_on_chip ? " out=sram" : "");
}

std::string ToString(const AddTiling& t) {
  return fmt::format("chunk={}{}{}{}", t.chunk, t.a_on_chip ? " a=sram" : "",
                     t.b_on_chip ? " b=sram" : "", t.output_on_chip ? " out=sram" : "");
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
  plan.a = Place(&cursor, uint64_t{rows} * l.in_w * t.tile_c, t.input_on_chip ? 0 : slots, align);
  plan.out =
      Place(&cursor, uint64_t{t.tile_oh} * l.out_w * t.tile_c, t.output_on_chip ? 0 : slots, align);
  plan.sram_bytes = cursor;
  return plan;
}

VectorPlan PlanAddSram(const AddLayer& l, const AddTiling& t, uint32_t align) {
  const uint32_t slots = l.Elements() > t.chunk ? 2 : 1;
  VectorPlan plan;
  uint64_t cursor = 0;
  plan.a = Place(&cursor, t.chunk, t.a_on_chip ? 0 : slots, align);
  plan.b = Place(&cursor, t.chunk, t.b_on_chip ? 0 : slots, align);
  // The result overwrites a's slot; an on-chip a needs its own output slots.
  plan.out = Place(&cursor, t.chunk, t.a_on_chip && !t.output_on_chip ? slots : 0, align);
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
      const auto plan = FitPlan(c, budget, [&](uint32_t a) { return PlanPoolSram(l, t, a); });
      if (!plan) continue;
      uint64_t dram = 0, sram = plan->sram_bytes;
      const PoolOperands ops{
          ReplayPlace(t.input_on_chip, &dram, &sram, l.InputBytes(), l.channels),
          ReplayPlace(t.output_on_chip, &dram, &sram, l.OutputBytes(), l.channels)};
      fitting.push_back({t, *plan});
      costs.push_back(Replay(c, EmitPool(l, t, *plan, ops)));
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
  return fitting[PickVector(costs)];
}

namespace {

// Replays ADD tilings chunking `chunks` elements at a time and keeps those that fit.
void TryAddChunks(const spec::NpuConfig& c, const AddLayer& l, const AddTiling& on_chip,
                  uint64_t budget, const std::vector<uint64_t>& chunks,
                  std::vector<VectorChoice<AddTiling>>& fitting, std::vector<Replayed>& costs) {
  for (uint64_t chunk : chunks) {
    AddTiling t = on_chip;
    t.chunk = chunk;
    if (chunk > kMaxAddCount) continue;
    const auto plan = FitPlan(c, budget, [&](uint32_t a) { return PlanAddSram(l, t, a); });
    if (!plan) continue;
    uint64_t dram = 0, sram = plan->sram_bytes;
    AddOperands ops{ReplayPlace(t.a_on_chip, &dram, &sram, l.Elements(), l.c),
                    ReplayPlace(t.b_on_chip, &dram, &sram, l.Elements(), l.c),
                    ReplayPlace(t.output_on_chip, &dram, &sram, l.Elements(), l.c)};
    fitting.push_back({t, *plan});
    costs.push_back(Replay(c, EmitAdd(l, t, *plan, ops)));
  }
}

}  // namespace

StatusOr<VectorChoice<AddTiling>> ChooseAddTiling(const spec::NpuConfig& c, const AddLayer& l,
                                                  AddTiling on_chip, uint64_t sram_budget) {
  NPU_TRY(CheckAddLayer(l));
  const uint64_t budget = sram_budget ? sram_budget : c.sram().size_bytes();
  const uint64_t row = uint64_t{l.w} * l.c;
  // 1. Whole rows (the next layer can start on the first ones); 2. only if no number of whole
  //    rows fits (or a row is longer than ADD counts), parts of a row.
  std::vector<uint64_t> rows;
  if (l.h > 1 && row <= kMaxAddCount) {
    for (uint64_t n : Splits(l.h)) rows.push_back(n * row);
  }
  std::vector<VectorChoice<AddTiling>> fitting;
  std::vector<Replayed> costs;
  TryAddChunks(c, l, on_chip, budget, rows, fitting, costs);
  if (fitting.empty()) TryAddChunks(c, l, on_chip, budget, Splits(row), fitting, costs);
  if (fitting.empty()) {
    return ResourceExhausted(fmt::format(
        "layer '{}': no tiling fits: one element per operand, double-buffered, needs {} bytes of "
        "SRAM; {}",
        l.DisplayName(),
        PlanAddSram(l, AddTiling{1, on_chip.a_on_chip, on_chip.b_on_chip, on_chip.output_on_chip},
                    1)
            .sram_bytes,
        SramAvailableText(c, sram_budget)));
  }
  return fitting[PickVector(costs)];
}

}  // namespace npu::compiler
