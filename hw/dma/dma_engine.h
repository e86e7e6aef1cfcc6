// A DMA engine serving one queue (load: DRAM -> SRAM, or store: SRAM -> DRAM) with several
// channels. Descriptors start in queue order, each on the next free channel, and retire in queue
// order, so tokens keep their meaning; a descriptor whose footprint overlaps one still in flight
// waits for it. A channel splits its descriptor into bursts (spec::SplitIntoBursts) and moves them
// as spec::DmaBurstPipeline times them (up to dma.outstanding_bursts in flight).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/common/sram_access.h"
#include "hw/common/unit_context.h"
#include "hw/spec/footprint.h"
#include "hw/spec/timing_model.h"

namespace npu::hw {

class DmaEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DmaEngine> bus{"bus"};  // DRAM, through the interconnect
  tlm_utils::simple_initiator_socket<DmaEngine> sram{"sram"};
  sc_core::sc_fifo<QueuedInsn> queue;

  SC_HAS_PROCESS(DmaEngine);
  // `direction` is spec::Opcode::kLoad or kStore.
  DmaEngine(sc_core::sc_module_name name, UnitContext& ctx, spec::Opcode direction,
            uint32_t channels);

 private:
  struct Job {
    QueuedInsn item;
    std::vector<spec::Footprint> footprint;
    bool done = false;
    UnitResult result;
    uint64_t wait_input = 0, wait_buffer = 0;
  };
  class ChannelMemories;  // dma_transfer.cc

  void Dispatch();
  void Channel(int channel);
  void RetireInOrder();
  bool OverlapsInFlight(const Job& job) const;
  int FreeChannel() const;
  UnitResult Execute(const spec::DmaArgs& dma);
  // Moves the bursts through spec::DmaBurstPipeline; adds their SRAM traffic to `traffic`, whose
  // conflict cycles overlap (see Execute).
  UnitResult Transfer(const std::vector<spec::Burst>& bursts, SramTiming& traffic);
  // One DRAM transaction; adds its delay to `delay`.
  bool DramAccess(tlm::tlm_command cmd, uint32_t offset, uint8_t* data, uint32_t bytes,
                  sc_core::sc_time& delay);

  UnitContext& ctx_;
  const spec::Opcode direction_;
  const spec::Queue queue_id_;
  const std::string engine_;
  std::deque<std::shared_ptr<Job>> in_order_;  // dispatched, not yet retired
  std::vector<std::shared_ptr<Job>> channel_job_;
  std::unique_ptr<sc_core::sc_event[]> kick_;
  sc_core::sc_event job_done_;
  BusyTracker busy_;
};

}  // namespace npu::hw
