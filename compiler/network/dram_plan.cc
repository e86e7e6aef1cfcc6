// DRAM planning of a network.
#include "compiler/network/dram_plan.h"

#include "compiler/memory/interval_planner.h"

namespace npu::compiler {
namespace {

uint64_t Align(uint64_t v) { return (v + kDramAlignBytes - 1) / kDramAlignBytes * kDramAlignBytes; }

}  // namespace

ModelDramPlan PlanModelDram(const Network& net, const std::vector<Lifetime>& life,
                            const std::vector<bool>& on_chip,
                            const std::vector<LayerConstants>& constants) {
  ModelDramPlan plan;
  uint64_t cursor = 0;
  for (const LayerConstants& c : constants) {
    plan.constants.push_back(cursor);
    cursor = Align(cursor + c.bytes.size());
  }
  plan.constants_bytes = cursor;
  plan.arena = cursor;
  std::vector<PlanItem> items;
  for (size_t b = 0; b < net.buffers.size(); ++b) {
    items.push_back(on_chip[b] ? PlanItem{}
                               : PlanItem{net.buffers[b].bytes, life[b].first, life[b].last});
  }
  const ArenaPlan arena = PlanArena(items, kDramAlignBytes);
  for (uint64_t offset : arena.offsets) plan.buffers.push_back(plan.arena + offset);
  plan.arena_bytes = arena.peak;
  plan.arena_lower_bound = LivenessLowerBound(items);
  plan.end = Align(plan.arena + arena.peak);
  return plan;
}

}  // namespace npu::compiler
