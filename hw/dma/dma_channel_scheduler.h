// Runs the channels of every DMA engine in one SystemC process, so that channels due at the same
// cycle act in the hardware's fixed priority (hw/spec/dma_dispatch.h, "Same-cycle priority"), not
// in whatever order the simulation kernel happens to pick among processes. Their order decides
// which of two same-cycle requests the DRAM controller and the SRAM banks serve first; the
// compiler's replay follows the same priority.
#pragma once

#include <cstdint>
#include <limits>
#include <systemc>
#include <vector>

#include "hw/common/clock.h"
#include "hw/common/unit_timer.h"

namespace npu::hw {

class DmaChannelScheduler : public sc_core::sc_module {
 public:
  // What the scheduler runs: an engine's channels at the current cycle.
  class Channels {
   public:
    virtual ~Channels() = default;
    // Acts on every channel due now or newly given a descriptor; returns the next cycle one of
    // them is due (kIdle: none is busy).
    virtual uint64_t StepChannels() = 0;
  };
  static constexpr uint64_t kIdle = std::numeric_limits<uint64_t>::max();

  SC_HAS_PROCESS(DmaChannelScheduler);
  DmaChannelScheduler(sc_core::sc_module_name name, const Clock& clock, UnitTimer& timer);

  // Engines in priority order: the first added acts first.
  void Add(Channels& engine) { engines_.push_back(&engine); }
  // A channel was given a descriptor: it starts a delta later (after the event that freed it has
  // reached every process waiting on it).
  void Kick() { kick_.notify(sc_core::SC_ZERO_TIME); }

 private:
  void Run();

  const Clock& clock_;
  UnitTimer& timer_;  // the channels' timed waits
  std::vector<Channels*> engines_;
  sc_core::sc_event kick_;
};

}  // namespace npu::hw
