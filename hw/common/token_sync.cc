// Token acquire/release with the wait time split by cause.
#include "hw/common/token_sync.h"

namespace npu::hw {

TokenSync::Waited TokenSync::Acquire(spec::Queue self, uint8_t wait_mask) {
  const int dst = static_cast<int>(self);
  Waited waited;
  for (int src = 0; src < spec::kNumQueues; ++src) {
    if (!(wait_mask & (1u << src))) continue;
    const uint64_t start = clock_.Now();
    blocked_on_[dst] = src;
    while (count_[src][dst] == 0) sc_core::wait(posted_[src][dst]);
    blocked_on_[dst] = -1;
    --count_[src][dst];
    // The queues form a pipeline load -> compute -> vector -> store.
    (src < dst ? waited.input_cycles : waited.buffer_cycles) += clock_.Now() - start;
  }
  return waited;
}

void TokenSync::Release(spec::Queue self, uint8_t signal_mask) {
  const int src = static_cast<int>(self);
  for (int dst = 0; dst < spec::kNumQueues; ++dst) {
    if (!(signal_mask & (1u << dst))) continue;
    ++count_[src][dst];
    posted_[src][dst].notify(sc_core::SC_ZERO_TIME);
  }
}

void TokenSync::Reset() {
  for (auto& row : count_) {
    for (uint32_t& c : row) c = 0;
  }
  for (int& b : blocked_on_) b = -1;
}

}  // namespace npu::hw
