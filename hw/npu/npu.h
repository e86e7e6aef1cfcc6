// The NPU: command processor, four queues (load DMA, MAC array, activation unit, store DMA),
// banked SRAM, accumulator buffer, tokens, counters and the register block, built from one
// validated config. Outside it: the system bus (bind bus_initiators() to it, and the bus's
// register port to regs.socket) and the interrupt line (regs.irq).
#pragma once

#include <string>
#include <systemc>
#include <vector>

#include "hw/acc/acc_buffer.h"
#include "hw/act/activation_unit.h"
#include "hw/cmdproc/command_processor.h"
#include "hw/common/unit_context.h"
#include "hw/dma/dma_engine.h"
#include "hw/mac_array/mac_array.h"
#include "hw/regs/register_block.h"
#include "hw/sram/sram.h"

namespace npu::hw {

struct NpuOptions {
  bool compute_data = true;  // false: timing only (identical cycles, no data computed)
  bool trace = false;        // record TraceEvents for a timeline
};

class Npu : public sc_core::sc_module {
 public:
  Npu(sc_core::sc_module_name name, const spec::NpuConfig& config, const NpuOptions& options);

  // The initiator sockets that go on the system bus: instruction fetch, load and store DMA.
  template <class Target>
  void BindBus(Target& bus_target) {
    command_processor.bus.bind(bus_target);
    load_dma.bus.bind(bus_target);
    store_dma.bus.bind(bus_target);
  }

  const PerfCounters& counters() const { return counters_; }
  const std::vector<TraceEvent>& trace() const { return trace_; }
  const std::vector<InsnRecord>& records() const { return records_; }
  const RunState& run_state() const { return run_; }
  const Clock& clock() const { return clock_; }
  uint64_t retired() const { return command_processor.retired(); }
  // Why a run that never completed is stuck.
  std::string DescribeHang() const { return command_processor.DescribeState(); }

 private:
  // Declared before the units that hold references to them.
  spec::NpuConfig config_;
  Clock clock_;
  PerfCounters counters_;
  TokenSync tokens_;
  RunState run_;
  std::vector<TraceEvent> trace_;
  std::vector<InsnRecord> records_;
  UnitTimer unit_timer_;
  UnitContext ctx_;

 public:
  Sram sram;
  AccBuffer acc;
  DmaChannelScheduler dma_channels;  // runs both engines' channels
  DmaEngine load_dma;
  DmaEngine store_dma;
  MacArray mac_array;
  ActivationUnit activation;
  CommandProcessor command_processor;
  RegisterBlock regs;
};

}  // namespace npu::hw
