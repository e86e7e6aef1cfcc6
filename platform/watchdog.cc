// The slice loop and the host thread behind it.
#include "platform/watchdog.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

namespace npu::platform {
namespace {

using Clock = std::chrono::steady_clock;

// Simulated cycles per slice: short enough that a time limit is noticed within a fraction of a
// second of host time, long enough that pausing costs nothing measurable.
constexpr uint64_t kSliceCycles = 1 << 16;

// Ends the process if the simulation has not come back kTimeoutGraceSeconds after the limit.
class HardDeadline {
 public:
  explicit HardDeadline(double timeout_seconds) {
    if (timeout_seconds <= 0) return;
    const auto until =
        Clock::now() + std::chrono::duration<double>(timeout_seconds + kTimeoutGraceSeconds);
    thread_ = std::thread([this, until, timeout_seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (cancelled_.wait_until(lock, until, [this] { return done_; })) return;
      std::fprintf(stderr,
                   "error: the simulation passed its time limit of %g s and did not stop within "
                   "%g s more: it is stuck at one simulated instant or inside a firmware kernel\n",
                   timeout_seconds, kTimeoutGraceSeconds);
      _exit(2);
    });
  }
  ~HardDeadline() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cancelled_.notify_one();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cancelled_;
  bool done_ = false;
  std::thread thread_;
};

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
