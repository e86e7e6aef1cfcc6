// The footprint-driven dependency pass.
#include "compiler/schedule/dependencies.h"

#include <algorithm>
#include <array>

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
      latest = std::max(latest, maps[1].MaxIn(f.begin, f.end));             // RAW, WAW
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
    Clock known = queue_known[q];
    for (int p = 0; p < spec::kNumQueues; ++p) {
      if (p == q) continue;
      const int64_t j = history.LatestConflict(p, footprints);
      if (j <= known[p]) continue;  // already ordered, directly or through another queue
      insns[j].signal_mask |= uint8_t(1u << q);
      insns[i].wait_mask |= uint8_t(1u << p);
      Clock completed = start_known[j];
      completed[p] = j;
      for (int r = 0; r < spec::kNumQueues; ++r) known[r] = std::max(known[r], completed[r]);
    }
    start_known[i] = known;
    if (!IsDmaQueue(q)) known[q] = static_cast<int64_t>(i);  // serial: next starts after i ends
    queue_known[q] = known;
    history.Record(q, static_cast<int64_t>(i), footprints);
  }
}

}  // namespace npu::compiler
