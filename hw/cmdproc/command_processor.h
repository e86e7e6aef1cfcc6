// The command processor. On the doorbell it fetches the instruction stream from DRAM in batches
// of cmd.fetch_batch words, decodes each word and dispatches it, in stream order, to its queue
// (waiting while that queue is full). The run completes when every dispatched instruction has
// retired, or as soon as a unit reports a fault.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>

#include "hw/common/unit_context.h"
#include "hw/spec/command_fetch.h"

namespace npu::hw {

class CommandProcessor : public sc_core::sc_module, public RunControl {
 public:
  tlm_utils::simple_initiator_socket<CommandProcessor> bus{"bus"};  // instruction fetch
  sc_core::sc_event completed;  // a run finished, with or without error

  SC_HAS_PROCESS(CommandProcessor);
  CommandProcessor(sc_core::sc_module_name name, UnitContext& ctx,
                   std::array<sc_core::sc_fifo<QueuedInsn>*, spec::kNumQueues> queues);

  void Start() { start_.notify(sc_core::SC_ZERO_TIME); }

  void Retire(spec::Queue queue, uint32_t index) override;
  void Fault(spec::regs::ErrorCode code, uint32_t index, const std::string& detail) override;
  bool faulted() const override { return faulted_; }

  uint64_t retired() const { return retired_count_; }
  // Where the current (or last) run stands: instructions dispatched and retired, and per queue
  // the instructions retired, those waiting in it, and the token it is blocked on, if any.
  std::string DescribeState() const;

 private:
  void Run();
  void BeginRun();
  // Fetches, decodes and dispatches one batch (spec::FetchBatchAt's rule).
  bool FetchAndDispatch(const spec::FetchBatch& batch);
  void Dispatch(QueuedInsn item);

  UnitContext& ctx_;
  std::array<sc_core::sc_fifo<QueuedInsn>*, spec::kNumQueues> queues_;
  sc_core::sc_event start_, retired_;
  uint64_t dispatched_ = 0;
  uint64_t retired_count_ = 0;
  bool faulted_ = false;
  std::vector<uint8_t> words_;
};

}  // namespace npu::hw
