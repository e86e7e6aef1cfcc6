// The NPU's one timing process.
#include "hw/common/unit_timer.h"

#include <algorithm>

namespace npu::hw {

UnitTimer::UnitTimer(sc_core::sc_module_name name, const Clock& clock)
    : sc_module(name), clock_(clock) {
  due_.fill(kIdle);
  SC_THREAD(Run);
}

void UnitTimer::Wait(Waker waker, uint64_t cycles, const sc_core::sc_event* also) {
  if (cycles == 0) {  // as a zero-cycle timed wait: the next delta
    if (also == nullptr) {
      sc_core::wait(sc_core::SC_ZERO_TIME);
    } else {
      sc_core::wait(sc_core::SC_ZERO_TIME, *also);
    }
    return;
  }
  const int slot = static_cast<int>(waker);
  due_[slot] = clock_.Now() + cycles;
  rearm_.notify();
  if (also == nullptr) {
    sc_core::wait(wake_[slot]);
  } else {
    sc_core::wait(wake_[slot] | *also);
    due_[slot] = kIdle;  // woken by `also`: the timed wake-up is void
  }
}

// Immediate notifications make the woken processes runnable in this evaluation phase in
// notification order, so they run one after the other, each until it blocks again.
void UnitTimer::Run() {
  for (;;) {
    const uint64_t now = clock_.Now();
    for (int slot = 0; slot < kWakers; ++slot) {
      if (due_[slot] != now) continue;
      due_[slot] = kIdle;
      wake_[slot].notify();
    }
    const uint64_t next = *std::min_element(due_.begin(), due_.end());
    if (next == kIdle) {
      sc_core::wait(rearm_);
    } else {
      sc_core::wait(clock_.Cycles(next - now), rearm_);
    }
  }
}

}  // namespace npu::hw
