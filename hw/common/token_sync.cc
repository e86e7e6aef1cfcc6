// Token acquire/release with the wait time split by cause, and the ordered wake-up.
#include "hw/common/token_sync.h"

#include "hw/spec/dma_dispatch.h"

namespace npu::hw {

static_assert(TokenSync::kWakeOrder[2] == spec::kDmaEnginePriority[0] &&
              TokenSync::kWakeOrder[3] == spec::kDmaEnginePriority[1]);

TokenSync::TokenSync(sc_core::sc_module_name name, const Clock& clock)
    : sc_module(name), clock_(clock) {
  SC_METHOD(WakeInOrder);
  sensitive << given_event_;
  dont_initialize();
  Reset();
}

TokenSync::Waited TokenSync::Acquire(spec::Queue self, uint8_t wait_mask) {
  const int dst = static_cast<int>(self);
  Waited waited;
  bool blocked = false;
  // A queue that had to wait takes no token given in the delta it woke in: that one wakes it
  // again a delta later (as the replay's Shared::Ready).
  for (int src; (src = counts_.Missing(self, wait_mask)) >= 0 ||
                (blocked && (src = GivenThisDelta(dst, wait_mask)) >= 0);) {
    const uint64_t start = clock_.Now();
    blocked_on_[dst] = src;
    sc_core::wait(wake_[dst]);
    blocked = true;
    // The queues form a pipeline load -> compute -> vector -> store.
    (src < dst ? waited.input_cycles : waited.buffer_cycles) += clock_.Now() - start;
  }
  blocked_on_[dst] = -1;
  counts_.Take(self, wait_mask);
  return waited;
}

void TokenSync::Release(spec::Queue self, uint8_t signal_mask) {
  counts_.Give(self, signal_mask);
  const int src = static_cast<int>(self);
  for (int dst = 0; dst < spec::kNumQueues; ++dst) {
    if (!(signal_mask >> dst & 1)) continue;
    given_[dst] = true;
    given_delta_[src][dst] = sc_core::sc_delta_count();
  }
  if (signal_mask != 0) given_event_.notify(sc_core::SC_ZERO_TIME);
}

// Immediate notifications from a method make the woken threads runnable in notification order
// (as hw/common/unit_timer.cc relies on): each runs until it blocks again, in kWakeOrder.
void TokenSync::WakeInOrder() {
  for (const spec::Queue q : kWakeOrder) {
    const int dst = static_cast<int>(q);
    if (!given_[dst]) continue;
    given_[dst] = false;
    wake_[dst].notify();
  }
}

int TokenSync::GivenThisDelta(int dst, uint8_t wait_mask) const {
  const uint64_t now = sc_core::sc_delta_count();
  for (int src = 0; src < spec::kNumQueues; ++src) {
    if ((wait_mask >> src & 1) && given_delta_[src][dst] == now) return src;
  }
  return -1;
}

void TokenSync::Reset() {
  counts_.Reset();
  given_.fill(false);
  for (auto& from : given_delta_) from.fill(kNoDelta);
  for (int& b : blocked_on_) b = -1;
}

}  // namespace npu::hw
