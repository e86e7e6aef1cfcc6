// The DMA channels' one process.
#include "hw/dma/dma_channel_scheduler.h"

#include <algorithm>

namespace npu::hw {

DmaChannelScheduler::DmaChannelScheduler(sc_core::sc_module_name name, const Clock& clock,
                                         UnitTimer& timer)
    : sc_module(name), clock_(clock), timer_(timer) {
  SC_THREAD(Run);
}

void DmaChannelScheduler::Run() {
  for (;;) {
    uint64_t next = kIdle;
    for (Channels* engine : engines_) next = std::min(next, engine->StepChannels());
    if (next == kIdle) {
      sc_core::wait(kick_);
    } else {
      timer_.Wait(UnitTimer::Waker::kDmaChannels, next - clock_.Now(), &kick_);
    }
  }
}

}  // namespace npu::hw
