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

// Walks the ic tiles of one output tile (sp, oc) of a batch, acquiring slots. Tile keys carry
// the batch's matrix ids, params only the oc tile (every batch has the same).
struct StepWalker {
  const TileGrid& grid;
  const SramPlan& plan;
  bool input_on_chip;  // read in place: nothing to acquire
  SlotCache inputs, weights, params;
  uint32_t batch = 0;
  ConvBatch ids;
  uint64_t group = 0;

  void Group(uint32_t sp, uint32_t oc, const std::function<void(const ConvStep&)>& visit) {
    const uint32_t steps = grid.reductions();  // (ic tile, kernel block) pairs
    const uint64_t input_base = uint64_t{ids.input_id} * BatchInputTiles(grid);
    const uint64_t weight_base = uint64_t{ids.weight_id} * grid.oc().count() * steps;
    ConvStep step;
    step.batch = batch;
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
      if (!input_on_chip) step.input = inputs.Acquire(input_base + grid.InputKey(sp, oc, r));
      step.weights = weights.Acquire(weight_base + uint64_t{oc} * steps + r);
      visit(step);
      step.params.load = false;
    }
    ++group;
  }
};

}  // namespace

std::vector<ConvBatch> ConsecutiveBatches(const ConvLayer& l) {
  std::vector<ConvBatch> batches;
  for (uint32_t i = 0; i < l.batches; ++i) {
    batches.push_back({uint64_t{i} * l.InputBytes(), uint64_t{i} * l.OutputBytes(),
                       uint64_t{i} * l.WeightBytes(), i, i});
  }
  return batches;
}

void ForEachStep(const TileGrid& grid, const ConvTiling& tiling, const SramPlan& plan,
                 const std::vector<ConvBatch>& batches,
                 const std::function<void(const ConvStep&)>& visit) {
  NPU_CHECK(batches.size() == grid.layer().batches);
  StepWalker walker{grid,
                    plan,
                    tiling.input_on_chip,
                    SlotCache(std::max(1u, plan.inputs.slots), tiling.inputs_resident),
                    SlotCache(plan.weights.slots, tiling.weights_resident),
                    SlotCache(plan.params.slots, tiling.params_resident),
                    0,
                    {},
                    0};
  const uint32_t spatial = grid.spatial_count(), channels = grid.oc().count();
  for (uint32_t b = 0; b < batches.size(); ++b) {
    walker.batch = b;
    walker.ids = batches[b];
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
}

}  // namespace npu::compiler
