// Predicts the cycles of an instruction stream by replaying it against the timing formulas of
// hw/spec/timing_model.h. Used by the tiler to rank tilings and reported per layer beside the
// platform's measurement.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct CostEstimate {
  uint64_t cycles = 0;            // doorbell to the last instruction's completion
  uint64_t dram_read_bytes = 0;   // LOADs plus instruction fetch
  uint64_t dram_write_bytes = 0;  // STOREs
  uint64_t macs = 0;              // CONV multiply-accumulates, padding positions included
  std::array<uint64_t, spec::kNumQueues> busy_cycles{};  // sum of durations per queue
  uint64_t dram_bytes() const { return dram_read_bytes + dram_write_bytes; }
};

// The replay, in stream order:
//   1. Fetch: the command processor reads fetch_batch instructions per DRAM transfer and
//      dispatches them in order; an instruction dispatches once its queue has room (the one
//      queue_depth places ahead of it has started).
//   2. Start: max(dispatch, queue free, completion of each instruction whose token it takes).
//      Compute and vector run one instruction at a time; the load/store queues start in order
//      on the first free of load_channels/store_channels channels.
//   3. Duration: CONV max(ConvComputeCycles, SRAM cycles of its operand reads); ACT
//      max(ActComputeCycles, SRAM cycles of params and output); DMA DmaIdealCycles of its
//      bursts, stretched so the DRAM data bus (shared by all channels, in stream order) is
//      never over-subscribed.
//   4. Completion: DMA queues retire in order; tokens are given at completion.
// Fails (FailedPrecondition) if a wait finds no earlier signal: run CheckTokenProtocol first.
StatusOr<CostEstimate> PredictCost(const spec::NpuConfig& config,
                                   const std::vector<spec::Instruction>& insns);

// Duration of one instruction running alone (step 3 without the shared DRAM bus).
uint64_t InstructionCycles(const spec::NpuConfig& config, const spec::Instruction& insn);

}  // namespace npu::compiler
