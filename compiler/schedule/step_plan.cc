// The loop nest and slot residency.
#include "compiler/schedule/step_plan.h"

#include <algorithm>

#include "hw/spec/status.h"

namespace npu::compiler {

SlotCache::SlotCache(uint32_t slots, bool resident)
    : slots_(slots), resident_(resident), held_(slots, -1) {}

SlotUse SlotCache::Acquire(uint64_t key) {
  if (resident_) {
    auto [it, inserted] = resident_slot_.try_emplace(key, uint32_t(resident_slot_.size()));
    NPU_CHECK(it->second < slots_);
    return {it->second, inserted};
  }
  for (uint32_t s = 0; s < slots_; ++s) {
    if (held_[s] == static_cast<int64_t>(key)) {
      last_ = s;
      return {s, false};
    }
  }
  const uint32_t slot = slots_ == 1 ? 0 : (last_ + 1) % slots_;
  held_[slot] = static_cast<int64_t>(key);
  last_ = slot;
  return {slot, true};
}

namespace {

// Walks the ic tiles of one output tile (sp, oc), acquiring slots.
struct StepWalker {
  const TileGrid& grid;
  const SramPlan& plan;
  bool input_on_chip;  // read in place: nothing to acquire
  SlotCache inputs, weights, params;
  uint64_t group = 0;

  void Group(uint32_t sp, uint32_t oc, const std::function<void(const ConvStep&)>& visit) {
    const uint32_t steps = grid.reductions();  // (ic tile, kernel block) pairs
    ConvStep step;
    step.sp = sp;
    step.oc = oc;
    step.group = group;
    step.acc_slot = static_cast<uint32_t>((group + plan.acc_phase) % plan.acc.slots);
    step.out_slot = plan.outputs.slots ? static_cast<uint32_t>(group % plan.outputs.slots) : 0;
    step.params = params.Acquire(oc);
    for (uint32_t r = 0; r < steps; ++r) {
      step.ic = r;
      step.first_ic = r == 0;
      step.last_ic = r + 1 == steps;
      if (!input_on_chip) step.input = inputs.Acquire(grid.InputKey(sp, oc, r));
      step.weights = weights.Acquire(uint64_t{oc} * steps + r);
      visit(step);
      step.params.load = false;
    }
    ++group;
  }
};

}  // namespace

void ForEachStep(const TileGrid& grid, const ConvTiling& tiling, const SramPlan& plan,
                 const std::function<void(const ConvStep&)>& visit) {
  StepWalker walker{grid,
                    plan,
                    tiling.input_on_chip,
                    SlotCache(std::max(1u, plan.inputs.slots), tiling.inputs_resident),
                    SlotCache(plan.weights.slots, tiling.weights_resident),
                    SlotCache(plan.params.slots, tiling.params_resident)};
  const uint32_t spatial = grid.spatial_count(), channels = grid.oc().count();
  if (tiling.order == LoopOrder::kSpatialOuter) {
    for (uint32_t sp = 0; sp < spatial; ++sp) {
      for (uint32_t oc = 0; oc < channels; ++oc) walker.Group(sp, oc, visit);
    }
  } else {
    for (uint32_t oc = 0; oc < channels; ++oc) {
      for (uint32_t sp = 0; sp < spatial; ++sp) walker.Group(sp, oc, visit);
    }
  }
}

}  // namespace npu::compiler
