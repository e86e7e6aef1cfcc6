// Reports a long run's progress from inside the simulation: every `interval` simulated cycles it
// calls back with the instructions retired so far. It observes only; it never changes timing. It
// stops by itself when nothing retires for a while, so a hung NPU still leaves the simulation
// with nothing to do (which is how a hang is detected).
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>

#include "hw/npu/npu.h"

namespace npu::platform {

class ProgressMonitor : public sc_core::sc_module {
 public:
  using Callback = std::function<void(uint64_t retired, uint64_t total, uint64_t cycles)>;

  SC_HAS_PROCESS(ProgressMonitor);
  ProgressMonitor(sc_core::sc_module_name name, const hw::Npu& npu, uint64_t interval_cycles,
                  Callback callback)
      : sc_module(name), npu_(npu), interval_(interval_cycles), callback_(std::move(callback)) {
    SC_THREAD(Watch);
  }

 private:
  static constexpr int kQuietIntervals = 8;

  void Watch() {
    uint64_t last_retired = 0;
    for (int quiet = 0; quiet < kQuietIntervals;) {
      sc_core::wait(npu_.clock().Cycles(interval_));
      const hw::RunState& run = npu_.run_state();
      if (!run.busy) continue;  // loading, or reading back
      const uint64_t retired = npu_.retired();
      quiet = retired == last_retired ? quiet + 1 : 0;
      last_retired = retired;
      callback_(retired, run.insn_count, npu_.clock().Now() - run.begin_cycle);
    }
  }

  const hw::Npu& npu_;
  uint64_t interval_;
  Callback callback_;
};

}  // namespace npu::platform
