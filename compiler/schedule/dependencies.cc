// The footprint-driven dependency pass.
#include "compiler/schedule/dependencies.h"

#include <algorithm>
#include <array>
#include <bit>

#include "compiler/schedule/interval_map.h"
#include "hw/spec/footprint.h"

namespace npu::compiler {
namespace {

using Clock = std::array<int64_t, spec::kNumQueues>;  // latest known-complete index per queue

int Q(const spec::Instruction& insn) { return static_cast<int>(insn.queue()); }
bool IsDmaQueue(int q) {
  return q == static_cast<int>(spec::Queue::kLoad) || q == static_cast<int>(spec::Queue::kStore);
}

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
  std::array<LatestAccesses, spec::kNumQueues> history;  // per queue
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
      if (p != q) latest[p] = history[p].LatestConflict(footprints);
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
    history[q].Record(static_cast<int64_t>(i), footprints);
  }
}

}  // namespace npu::compiler
