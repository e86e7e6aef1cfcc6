// The footprint-driven dependency pass.
#include "compiler/schedule/dependencies.h"

#include <algorithm>
#include <array>
#include <bit>

#include "compiler/schedule/interval_map.h"
#include "hw/spec/footprint.h"

namespace npu::compiler {
namespace {

constexpr int kSpaces = 3;
using Clock = std::array<int64_t, spec::kNumQueues>;  // latest known-complete index per queue

int Q(const spec::Instruction& insn) { return static_cast<int>(insn.queue()); }
bool IsDmaQueue(int q) {
  return q == static_cast<int>(spec::Queue::kLoad) || q == static_cast<int>(spec::Queue::kStore);
}

// Latest accesses of each space, queue and kind (0 read, 1 write).
class AccessHistory {
 public:
  // The latest instruction of queue p conflicting with any of `footprints`.
  int64_t LatestConflict(int p, const std::vector<spec::Footprint>& footprints) const {
    int64_t latest = -1;
    for (const spec::Footprint& f : footprints) {
      const auto& maps = maps_[static_cast<int>(f.space)][p];
      latest = std::max(latest, maps[1].MaxIn(f.begin, f.end));               // RAW, WAW
      if (f.write) latest = std::max(latest, maps[0].MaxIn(f.begin, f.end));  // WAR
    }
    return latest;
  }
  void Record(int q, int64_t index, const std::vector<spec::Footprint>& footprints) {
    for (const spec::Footprint& f : footprints) {
      maps_[static_cast<int>(f.space)][q][f.write ? 1 : 0].Assign(f.begin, f.end, index);
    }
  }

 private:
  std::array<std::array<std::array<LatestAccessMap, 2>, spec::kNumQueues>, kSpaces> maps_;
};

// What i knows once instruction j of queue p has completed.
Clock CompletedClock(const std::vector<Clock>& start_known, int p, int64_t j) {
  Clock completed = start_known[j];
  completed[p] = j;
  return completed;
}

void Merge(Clock& into, const Clock& from) {
  for (int r = 0; r < spec::kNumQueues; ++r) into[r] = std::max(into[r], from[r]);
}

// The smallest set of queues to wait on (bit p: wait for latest[p]) such that, with what their
// completions imply, every need latest[p] > known[p] is covered.
uint8_t FewestWaits(const Clock& known, const Clock& latest,
                    const std::vector<Clock>& start_known) {
  uint8_t needed = 0;
  for (int p = 0; p < spec::kNumQueues; ++p) needed |= uint8_t((latest[p] > known[p]) << p);
  uint8_t best = needed;
  for (uint8_t subset = 0; subset < needed; ++subset) {
    if ((subset & ~needed) || std::popcount(subset) >= std::popcount(best)) continue;
    Clock merged = known;
    for (int p = 0; p < spec::kNumQueues; ++p) {
      if (subset >> p & 1) Merge(merged, CompletedClock(start_known, p, latest[p]));
    }
    bool covered = true;
    for (int p = 0; p < spec::kNumQueues; ++p) covered &= latest[p] <= merged[p];
    if (covered) best = subset;
  }
  return best;
}

}  // namespace

void AssignDependencies(std::vector<spec::Instruction>& insns) {
  AccessHistory history;
  std::vector<Clock> start_known(insns.size());
  Clock none;
  none.fill(-1);
  std::array<Clock, spec::kNumQueues> queue_known;  // what the queue's next instruction inherits
  queue_known.fill(none);
  for (spec::Instruction& insn : insns) insn.wait_mask = insn.signal_mask = 0;

  for (size_t i = 0; i < insns.size(); ++i) {
    const int q = Q(insns[i]);
    const std::vector<spec::Footprint> footprints = spec::Footprints(insns[i]);
    Clock latest = none;  // latest conflicting instruction per other queue
    for (int p = 0; p < spec::kNumQueues; ++p) {
      if (p != q) latest[p] = history.LatestConflict(p, footprints);
    }
    Clock known = queue_known[q];
    const uint8_t waits = FewestWaits(known, latest, start_known);
    for (int p = 0; p < spec::kNumQueues; ++p) {
      if (!(waits >> p & 1)) continue;
      insns[latest[p]].signal_mask |= uint8_t(1u << q);
      insns[i].wait_mask |= uint8_t(1u << p);
      Merge(known, CompletedClock(start_known, p, latest[p]));
    }
    start_known[i] = known;
    if (!IsDmaQueue(q)) known[q] = static_cast<int64_t>(i);  // serial: next starts after i ends
    queue_known[q] = known;
    history.Record(q, static_cast<int64_t>(i), footprints);
  }
}

}  // namespace npu::compiler
