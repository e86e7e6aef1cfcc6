// The dependency tokens between the four queues as the SystemC units wait for them: the counts and
// the rule are spec::TokenCounts (shared with the compiler's replay); this adds the waiting and
// the wait time split by cause. See docs/isa.md, "Tokens".
//
// Tokens given in one delta wake their waiters a delta later, all through one method, in the
// hardware's fixed order (compute, vector, then the DMA engines in spec::kDmaEnginePriority):
// the order the compiler's replay steps its units in. Without it the simulation kernel would
// pick (Accellera's resumes delta-notified waiters last-notified first), and which of two units
// woken together books the SRAM banks first would not be a rule (docs/timing-fidelity.md,
// "Same-cycle order").
#pragma once

#include <array>
#include <cstdint>
#include <systemc>

#include "hw/common/clock.h"
#include "hw/spec/isa.h"
#include "hw/spec/token_counts.h"

namespace npu::hw {

class TokenSync : public sc_core::sc_module {
 public:
  struct Waited {
    uint64_t input_cycles = 0;   // for tokens from upstream queues: data not yet produced
    uint64_t buffer_cycles = 0;  // for tokens from downstream queues: buffer not yet free
  };

  SC_HAS_PROCESS(TokenSync);
  TokenSync(sc_core::sc_module_name name, const Clock& clock);

  // Blocks the calling thread until it holds one token from every queue in `wait_mask`.
  Waited Acquire(spec::Queue self, uint8_t wait_mask);
  // Gives one token to every queue in `signal_mask`.
  void Release(spec::Queue self, uint8_t signal_mask);
  void Reset();
  // The queue `self` is waiting for a token from, or -1.
  int BlockedOn(spec::Queue self) const { return blocked_on_[static_cast<int>(self)]; }

  // The order queues woken in one delta resume in.
  static constexpr std::array<spec::Queue, spec::kNumQueues> kWakeOrder = {
      spec::Queue::kCompute, spec::Queue::kVector, spec::Queue::kLoad, spec::Queue::kStore};

 private:
  void WakeInOrder();
  // The first queue of `wait_mask` that gave `dst` a token in the current delta, or -1.
  int GivenThisDelta(int dst, uint8_t wait_mask) const;
  static constexpr uint64_t kNoDelta = ~uint64_t{0};

  const Clock& clock_;
  spec::TokenCounts counts_;
  std::array<bool, spec::kNumQueues> given_{};  // tokens given to the queue this delta
  // The delta (sc_delta_count) of the last token each queue gave each queue (Reset: none).
  std::array<std::array<uint64_t, spec::kNumQueues>, spec::kNumQueues> given_delta_;
  sc_core::sc_event given_event_;                         // some were: WakeInOrder next delta
  std::array<sc_core::sc_event, spec::kNumQueues> wake_;  // what a blocked queue waits on
  int blocked_on_[spec::kNumQueues] = {-1, -1, -1, -1};
};

}  // namespace npu::hw
