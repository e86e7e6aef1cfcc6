// The NPU's one timing process: a method (cheaper than a thread: no context switch) that runs
// when any waker's timed notification falls due and wakes the wakers due, in priority order.
#include "hw/common/unit_timer.h"

namespace npu::hw {

UnitTimer::UnitTimer(sc_core::sc_module_name name, const Clock& clock)
    : sc_module(name), clock_(clock) {
  due_.fill(kIdle);
  SC_METHOD(Fire);
  for (const sc_core::sc_event& e : timed_) sensitive << e;
  dont_initialize();
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
  timed_[slot].notify(clock_.Cycles(cycles));
  if (also == nullptr) {
    sc_core::wait(wake_[slot]);
  } else {
    sc_core::wait(wake_[slot] | *also);
    due_[slot] = kIdle;  // woken by `also`: the timed wake-up is void
    timed_[slot].cancel();
  }
}

// Immediate notifications make the woken processes runnable in this evaluation phase in
// notification order, so they run one after the other, each until it blocks again. Several
// wakers falling due together trigger the method once.
void UnitTimer::Fire() {
  const uint64_t now = clock_.Now();
  for (int slot = 0; slot < kWakers; ++slot) {
    if (due_[slot] != now) continue;
    due_[slot] = kIdle;
    wake_[slot].notify();
  }
}

}  // namespace npu::hw
