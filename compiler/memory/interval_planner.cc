// The greedy-by-size interval planner.
#include "compiler/memory/interval_planner.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace npu::compiler {
namespace {

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

ArenaPlan PlanArena(const std::vector<PlanItem>& items, uint64_t align) {
  ArenaPlan plan;
  plan.offsets.assign(items.size(), 0);
  // 1. Largest first.
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tie(items[b].bytes, items[a].first) < std::tie(items[a].bytes, items[b].first);
  });
  // 2. Lowest gap among the placed items that are alive at the same time, found through the
  // items placed at each step (a compile plans thousands of items, each alive a few steps; the
  // on-chip planner plans them again for each item it allocates early).
  int lowest = 0, highest = -1;
  for (const PlanItem& item : items) {
    if (!item.alive()) continue;
    lowest = std::min(lowest, item.first);
    highest = std::max(highest, item.last);
  }
  std::vector<std::vector<size_t>> placed_at(highest - lowest + 1);
  std::vector<size_t> seen_by(items.size(), items.size());  // the item that last collected it
  for (size_t i : order) {
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
    plan.peak = std::max(plan.peak, offset + items[i].bytes);
    for (int step = items[i].first; step <= items[i].last; ++step) {
      placed_at[step - lowest].push_back(i);
    }
  }
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
