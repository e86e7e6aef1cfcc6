// The dependency tokens between the four queues as the SystemC units wait for them: the counts and
// the rule are spec::TokenCounts (shared with the compiler's replay); this adds the waiting, a
// wake-up per ordered pair, and the wait time split by cause. See docs/isa.md, "Tokens".
#pragma once

#include <cstdint>
#include <systemc>

#include "hw/common/clock.h"
#include "hw/spec/isa.h"
#include "hw/spec/token_counts.h"

namespace npu::hw {

class TokenSync {
 public:
  struct Waited {
    uint64_t input_cycles = 0;   // for tokens from upstream queues: data not yet produced
    uint64_t buffer_cycles = 0;  // for tokens from downstream queues: buffer not yet free
  };

  explicit TokenSync(const Clock& clock) : clock_(clock) {}

  // Blocks the calling thread until it holds one token from every queue in `wait_mask`.
  Waited Acquire(spec::Queue self, uint8_t wait_mask);
  // Gives one token to every queue in `signal_mask`.
  void Release(spec::Queue self, uint8_t signal_mask);
  void Reset();
  // The queue `self` is waiting for a token from, or -1.
  int BlockedOn(spec::Queue self) const { return blocked_on_[static_cast<int>(self)]; }

 private:
  const Clock& clock_;
  spec::TokenCounts counts_;
  sc_core::sc_event posted_[spec::kNumQueues][spec::kNumQueues];
  int blocked_on_[spec::kNumQueues] = {-1, -1, -1, -1};
};

}  // namespace npu::hw
