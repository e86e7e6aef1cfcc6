// Every timed wait of the NPU's processes (the compute and vector units' instructions, the DMA
// channels, the command processor's fetch) ends through one SystemC process, so that processes
// due on the same cycle resume in the hardware's fixed order (Waker, first to last), not in
// whichever order the simulation kernel picks among timed wake-ups. What each does on that cycle
// (retire, take its next instruction, book SRAM banks, ask DRAM) then happens in that order, the
// order the compiler's replay steps its units in (docs/timing-fidelity.md, "Same-cycle order").
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <systemc>

#include "hw/common/clock.h"

namespace npu::hw {

class UnitTimer : public sc_core::sc_module {
 public:
  // The processes with timed waits, in their same-cycle priority.
  enum class Waker { kCompute, kVector, kDmaChannels, kFetch, kCount };

  SC_HAS_PROCESS(UnitTimer);
  UnitTimer(sc_core::sc_module_name name, const Clock& clock);

  // Called from `waker`'s process: returns `cycles` later, once every process of higher priority
  // due on the same cycle has run until it blocked again; or earlier if `also` is notified.
  void Wait(Waker waker, uint64_t cycles, const sc_core::sc_event* also = nullptr);

 private:
  static constexpr uint64_t kIdle = std::numeric_limits<uint64_t>::max();
  static constexpr int kWakers = static_cast<int>(Waker::kCount);
  void Fire();

  const Clock& clock_;
  std::array<uint64_t, kWakers> due_;
  std::array<sc_core::sc_event, kWakers> timed_;  // each waker's timed notification
  std::array<sc_core::sc_event, kWakers> wake_;   // what the waker's process waits on
};

}  // namespace npu::hw
