// Token acquire/release with the wait time split by cause.
#include "hw/common/token_sync.h"

namespace npu::hw {

TokenSync::Waited TokenSync::Acquire(spec::Queue self, uint8_t wait_mask) {
  const int dst = static_cast<int>(self);
  Waited waited;
  for (int src; (src = counts_.Missing(self, wait_mask)) >= 0;) {
    const uint64_t start = clock_.Now();
    blocked_on_[dst] = src;
    sc_core::wait(posted_[src][dst]);
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
    if (signal_mask >> dst & 1) posted_[src][dst].notify(sc_core::SC_ZERO_TIME);
  }
}

void TokenSync::Reset() {
  counts_.Reset();
  for (int& b : blocked_on_) b = -1;
}

}  // namespace npu::hw
