// The dependency tokens between the four queues: a counting semaphore per ordered pair
// (producer queue -> consumer queue). See docs/isa.md, "Tokens".
#pragma once

#include <cstdint>
#include <systemc>

#include "hw/common/clock.h"
#include "hw/spec/isa.h"

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
  uint32_t count_[spec::kNumQueues][spec::kNumQueues] = {};
  sc_core::sc_event posted_[spec::kNumQueues][spec::kNumQueues];
  int blocked_on_[spec::kNumQueues] = {-1, -1, -1, -1};
};

}  // namespace npu::hw
