// Static placement of buffers with known lifetimes in one address space (the DRAM activation
// arena, the SRAM), as TFLite Micro's GreedyMemoryPlanner does it:
//   1. order the buffers by size, largest first (ties: earlier first);
//   2. place each at the lowest aligned offset where it overlaps no already placed buffer whose
//      lifetime overlaps its own.
// Buffers alive at the same step never share a byte; others may. The peak is compared with the
// liveness lower bound: the most bytes simultaneously alive at any step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace npu::compiler {

struct PlanItem {
  uint64_t bytes = 0;
  int first = 0, last = -1;  // alive over steps [first, last]; empty if last < first
  bool alive() const { return bytes > 0 && first <= last; }
  bool OverlapsInTime(const PlanItem& o) const { return first <= o.last && o.first <= last; }
};

struct ArenaPlan {
  std::vector<uint64_t> offsets;  // per item (0 for items never alive)
  uint64_t peak = 0;              // end of the highest placed item
};

ArenaPlan PlanArena(const std::vector<PlanItem>& items, uint64_t align);

// PlanArena(items, align), given `previous`, its plan of the same items but with
// items[extended] alive from one step later (its `first` since lowered by one): only that item
// and those after it in the order are placed again, each placement depending only on the items
// placed before it (the on-chip planner's trials of allocating one item a step early).
ArenaPlan ReplanArena(const std::vector<PlanItem>& items, uint64_t align,
                      const ArenaPlan& previous, size_t extended);

// max over steps of the sum of alive items' sizes, each rounded up to `align`.
uint64_t LivenessLowerBound(const std::vector<PlanItem>& items, uint64_t align = 1);

// The first pair of items alive at the same step whose bytes overlap in `plan`, or {-1, -1}.
std::pair<int, int> FindOverlap(const std::vector<PlanItem>& items, const ArenaPlan& plan);

}  // namespace npu::compiler
