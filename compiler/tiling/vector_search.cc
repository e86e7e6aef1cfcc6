// The vector layers' shared search helpers.
#include "compiler/tiling/vector_search.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "compiler/tiling/candidate_cost.h"
#include "hw/spec/timing_model.h"

namespace npu::compiler::vector_search {

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

SlotBuffer Place(uint64_t* cursor, uint64_t slot_bytes, uint32_t slots, uint64_t align) {
  SlotBuffer b{AlignUp(*cursor, align), AlignUp(slot_bytes, align), slots};
  *cursor = b.end();
  return b;
}

std::vector<uint64_t> Splits(uint64_t extent) {
  std::set<uint64_t> sizes{1};
  for (uint64_t k = 1; k <= extent; k = k < 4 ? k + 1 : k * 3 / 2) {
    sizes.insert((extent + k - 1) / k);
  }
  return {sizes.begin(), sizes.end()};
}

std::optional<VectorPlan> FitPlan(const spec::NpuConfig& c, uint64_t budget,
                                  const std::function<VectorPlan(uint32_t align)>& plan_fn) {
  const uint32_t stripe = c.sram().banks() * c.sram().bank_width_bytes();
  for (uint32_t align : {stripe, c.sram().bank_width_bytes(), 1u}) {
    VectorPlan plan = plan_fn(align);
    if (plan.sram_bytes <= budget) return plan;
  }
  return std::nullopt;
}

Replayed Replay(const spec::NpuConfig& c, const std::vector<spec::Instruction>& insns) {
  Replayed r{CandidateCost(c, insns).cycles, 0, 0};
  uint64_t vector_insns = 0;
  for (const spec::Instruction& insn : insns) {
    if (insn.queue() == spec::Queue::kVector) {
      r.longest = std::max(r.longest, spec::IdealCycles(c, insn));
      ++vector_insns;
    }
  }
  r.pipeline_fills = std::min(vector_insns, kForgivenFills) * c.act().pipeline_cycles();
  return r;
}

size_t Pick(const std::vector<Replayed>& costs) {
  uint64_t fastest = UINT64_MAX;
  for (const Replayed& r : costs) fastest = std::min(fastest, r.cycles);
  size_t best = costs.size();
  for (size_t i = 0; i < costs.size(); ++i) {
    if (costs[i].cycles - costs[i].pipeline_fills > fastest * kNearBest) continue;
    if (best == costs.size() || std::tie(costs[i].longest, costs[i].cycles) <
                                    std::tie(costs[best].longest, costs[best].cycles)) {
      best = i;
    }
  }
  return best;
}

TensorPlace ReplayPlace(bool on_chip, uint64_t* dram, uint64_t* sram, uint64_t bytes,
                        uint32_t channels, uint32_t element_bytes) {
  TensorPlace p{on_chip, on_chip ? *sram : *dram, channels, 0, element_bytes};
  (on_chip ? *sram : *dram) += AlignUp(bytes, 256);
  return p;
}

}  // namespace npu::compiler::vector_search
