// The greedy-by-size interval planner.
#include "compiler/memory/interval_planner.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace npu::compiler {
namespace {

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// Largest first; ties: alive earlier first, then in index order.
std::vector<size_t> PlacementOrder(const std::vector<PlanItem>& items) {
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tie(items[b].bytes, items[a].first) < std::tie(items[a].bytes, items[b].first);
  });
  return order;
}

// The greedy from position `from` of `order` on, the items before it already at their offsets in
// `plan`: each at the lowest gap among the placed items alive at the same time, found through the
// items placed at each step (a compile plans thousands of items, each alive a few steps; the
// on-chip planner plans them again for each item it allocates early).
void PlaceFrom(const std::vector<PlanItem>& items, uint64_t align,
               const std::vector<size_t>& order, size_t from, ArenaPlan& plan) {
  int lowest = 0, highest = -1;
  for (const PlanItem& item : items) {
    if (!item.alive()) continue;
    lowest = std::min(lowest, item.first);
    highest = std::max(highest, item.last);
  }
  std::vector<std::vector<size_t>> placed_at(highest - lowest + 1);
  plan.peak = 0;
  const auto place = [&](size_t i) {
    plan.peak = std::max(plan.peak, plan.offsets[i] + items[i].bytes);
    for (int step = items[i].first; step <= items[i].last; ++step) {
      placed_at[step - lowest].push_back(i);
    }
  };
  for (size_t k = 0; k < from; ++k) {
    if (items[order[k]].alive()) place(order[k]);
  }
  std::vector<size_t> seen_by(items.size(), items.size());  // the item that last collected it
  for (size_t k = from; k < order.size(); ++k) {
    const size_t i = order[k];
    plan.offsets[i] = 0;
    if (!items[i].alive()) continue;
    std::vector<std::pair<uint64_t, uint64_t>> taken;  // [begin, end)
    for (int step = items[i].first; step <= items[i].last; ++step) {
      for (size_t j : placed_at[step - lowest]) {
        if (seen_by[j] == i) continue;
        seen_by[j] = i;
        taken.emplace_back(plan.offsets[j], plan.offsets[j] + items[j].bytes);
      }
    }
    std::sort(taken.begin(), taken.end());
    uint64_t offset = 0;
    for (const auto& [begin, end] : taken) {
      if (offset + items[i].bytes <= begin) break;
      offset = std::max(offset, AlignUp(end, align));
    }
    plan.offsets[i] = offset;
    place(i);
  }
}

}  // namespace

ArenaPlan PlanArena(const std::vector<PlanItem>& items, uint64_t align) {
  ArenaPlan plan;
  plan.offsets.assign(items.size(), 0);
  PlaceFrom(items, align, PlacementOrder(items), 0, plan);
  return plan;
}

ArenaPlan ReplanArena(const std::vector<PlanItem>& items, uint64_t align,
                      const ArenaPlan& previous, size_t extended) {
  // The extended item only moves ahead in the order (an earlier first breaks ties earlier): the
  // items before its new place were before it, placed from the same items as before.
  const std::vector<size_t> order = PlacementOrder(items);
  ArenaPlan plan = previous;
  PlaceFrom(items, align, order, std::find(order.begin(), order.end(), extended) - order.begin(),
            plan);
  return plan;
}

uint64_t LivenessLowerBound(const std::vector<PlanItem>& items, uint64_t align) {
  std::map<int, int64_t> delta;  // step -> change in alive bytes
  for (const PlanItem& item : items) {
    if (!item.alive()) continue;
    const int64_t bytes = static_cast<int64_t>(AlignUp(item.bytes, align));
    delta[item.first] += bytes;
    delta[item.last + 1] -= bytes;
  }
  int64_t alive = 0, peak = 0;
  for (const auto& [step, change] : delta) {
    alive += change;
    peak = std::max(peak, alive);
  }
  return static_cast<uint64_t>(peak);
}

std::pair<int, int> FindOverlap(const std::vector<PlanItem>& items, const ArenaPlan& plan) {
  for (size_t i = 0; i < items.size(); ++i) {
    for (size_t j = i + 1; j < items.size(); ++j) {
      if (!items[i].alive() || !items[j].alive() || !items[i].OverlapsInTime(items[j])) continue;
      if (plan.offsets[i] < plan.offsets[j] + items[j].bytes &&
          plan.offsets[j] < plan.offsets[i] + items[i].bytes) {
        return {static_cast<int>(i), static_cast<int>(j)};
      }
    }
  }
  return {-1, -1};
}

}  // namespace npu::compiler
