// The NPU's performance counters (ids in hw/spec/regs.h), readable through the register block.
// Units add to them as they account time; the command processor resets them at the doorbell.
#pragma once

#include <array>
#include <cstdint>

#include "hw/spec/regs.h"

namespace npu::hw {

class PerfCounters {
 public:
  void Add(uint32_t id, uint64_t n) { values_[id] += n; }
  void Set(uint32_t id, uint64_t v) { values_[id] = v; }
  uint64_t Get(uint32_t id) const { return id < values_.size() ? values_[id] : 0; }
  void AddQueue(spec::Queue q, spec::regs::QueueCounter c, uint64_t n) {
    Add(spec::regs::QueueCounterId(q, c), n);
  }
  void Reset() { values_.fill(0); }

 private:
  std::array<uint64_t, spec::regs::kNumCounters> values_{};
};

// Counts the cycles during which at least one of several channels is active.
class BusyTracker {
 public:
  void Begin(uint64_t now) {
    if (active_++ == 0) since_ = now;
  }
  // Returns the cycles to add to the busy counter (non-zero when the last channel goes idle).
  uint64_t End(uint64_t now) { return --active_ == 0 ? now - since_ : 0; }

 private:
  int active_ = 0;
  uint64_t since_ = 0;
};

}  // namespace npu::hw
