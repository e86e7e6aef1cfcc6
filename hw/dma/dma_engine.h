// A DMA engine serving one queue (load: DRAM -> SRAM, or store: SRAM -> DRAM) with several
// channels. Which descriptor starts when, on which channel, and when it retires is
// spec::DmaDispatch's rule (shared with the compiler's replay): in queue order, on the lowest free
// channel, held while it overlaps a descriptor still moving, retired in queue order so tokens keep
// their meaning. A channel splits its descriptor into bursts (spec::SplitIntoBursts) and moves
// them as spec::DmaBurstPipeline times them (up to dma.outstanding_bursts in flight). The channels
// of every engine run in one process (DmaChannelScheduler), in the rule's fixed priority.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <vector>

#include "hw/common/sram_access.h"
#include "hw/common/unit_context.h"
#include "hw/dma/dma_channel_scheduler.h"
#include "hw/spec/dma_burst_pipeline.h"
#include "hw/spec/dma_dispatch.h"
#include "hw/spec/timing_model.h"

namespace npu::hw {

class DmaEngine : public sc_core::sc_module, public DmaChannelScheduler::Channels {
 public:
  tlm_utils::simple_initiator_socket<DmaEngine> bus{"bus"};  // DRAM, through the interconnect
  tlm_utils::simple_initiator_socket<DmaEngine> sram{"sram"};
  sc_core::sc_fifo<QueuedInsn> queue;

  SC_HAS_PROCESS(DmaEngine);
  // `direction` is spec::Opcode::kLoad or kStore. `scheduler` runs the channels (the engine's
  // owner adds it there in the same-cycle priority).
  DmaEngine(sc_core::sc_module_name name, UnitContext& ctx, spec::Opcode direction,
            uint32_t channels, DmaChannelScheduler& scheduler);

  uint64_t StepChannels() override;

 private:
  struct Job {
    QueuedInsn item;
    UnitResult result;
    uint64_t wait_input = 0, wait_buffer = 0;
  };
  class ChannelMemories;  // dma_transfer.cc
  // What a channel is moving: its descriptor's bursts through the pipeline (dma_transfer.cc).
  struct Transfer {
    std::shared_ptr<Job> job;
    bool kicked = false;  // given by the dispatcher, not started yet
    uint64_t begin = 0, wake = 0;
    std::vector<spec::Burst> bursts;
    SramTiming traffic;
    std::shared_ptr<ChannelMemories> memories;  // shared_ptr: the type is dma_transfer.cc's
    std::optional<spec::DmaBurstPipeline> pipeline;
  };

  void Dispatch();
  void RetireInOrder();
  // A channel's steps at the current cycle: start a kicked descriptor, advance its pipeline while
  // due, finish it when done. True if the channel still moves a descriptor.
  bool StepChannel(size_t channel);
  void StartTransfer(Transfer& t);             // dma_transfer.cc
  void AdvanceTransfer(Transfer& t);           // dma_transfer.cc
  bool TransferDone(const Transfer& t) const;  // dma_transfer.cc
  // Its outcome, and what it lost against running alone, by cause (dma_transfer.cc).
  UnitResult TransferResult(const Transfer& t);
  void FinishTransfer(size_t channel);
  // One DRAM transaction; adds its delay to `delay`.
  bool DramAccess(tlm::tlm_command cmd, uint32_t offset, uint8_t* data, uint32_t bytes,
                  sc_core::sc_time& delay);

  UnitContext& ctx_;
  const spec::Opcode direction_;
  const spec::Queue queue_id_;
  const std::string engine_;
  spec::DmaDispatch dispatch_;
  std::vector<Transfer> channels_;
  std::unordered_map<uint32_t, std::shared_ptr<Job>> jobs_;  // by instruction index, in flight
  DmaChannelScheduler& scheduler_;
  sc_core::sc_event job_done_;
  BusyTracker busy_;
};

}  // namespace npu::hw
