// The slice loop.
#include "platform/watchdog.h"

#include <algorithm>
#include <chrono>

#include "platform/hard_deadline.h"

namespace npu::platform {
namespace {

using Clock = std::chrono::steady_clock;

// Simulated cycles per slice: short enough that a time limit is noticed within a fraction of a
// second of host time, long enough that pausing costs nothing measurable.
constexpr uint64_t kSliceCycles = 1 << 16;

}  // namespace

SimulationEnd Simulate(const ControlCore& core, const hw::Clock& clock, uint64_t max_cycles,
                       double timeout_seconds) {
  HardDeadline hard_deadline(timeout_seconds);
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_seconds);
  // Starvation ends a slice at its last event, not at its end, so a quiet stretch longer than a
  // slice (one long DMA) would leave time standing still: the next slice reaches at least the
  // next event. 0 before the first slice, when nothing is scheduled yet.
  uint64_t to_next_event = 0;
  for (;;) {
    uint64_t slice = std::max(kSliceCycles, to_next_event);
    if (max_cycles > 0) {
      const uint64_t now = clock.Now();
      if (now >= max_cycles || to_next_event > max_cycles - now) {
        return SimulationEnd::kCycleBudget;
      }
      slice = std::min(slice, max_cycles - now);
    }
    sc_core::sc_start(clock.Cycles(slice), sc_core::SC_EXIT_ON_STARVATION);
    if (core.finished()) return SimulationEnd::kFirmwareReturned;
    if (!sc_core::sc_pending_activity()) return SimulationEnd::kNothingLeft;
    if (timeout_seconds > 0 && Clock::now() >= deadline) return SimulationEnd::kTimeout;
    to_next_event = clock.ToCycles(sc_core::sc_time_to_pending_activity()) + 1;  // + 1: rounding
  }
}

}  // namespace npu::platform
