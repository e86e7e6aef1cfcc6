// Predicts the cycles of an instruction stream by replaying it against the timing formulas of
// hw/spec/timing_model.h. Used by the tiler to rank tilings and reported per layer beside the
// platform's measurement.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hw/spec/insn_record.h"
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

// Two replays of the stream with the timing formulas of hw/spec/timing_model.h:
//
// Exact (event_replay.h, the default): event by event in simulated time with the hardware's own
// arbitration of the DRAM bus, the SRAM banks, the DMA channels and the queues. What reports
// put beside the platform's measurement.
//
// Fast (CostOptions::exact = false), in stream order, for ranking thousands of tiling candidates:
//   1. Fetch: the command processor reads fetch_batch instructions per DRAM transfer and
//      dispatches them in order; an instruction dispatches once its queue has room (the one
//      queue_depth places ahead of it has started).
//   2. Start: max(dispatch, queue free, completion of each instruction whose token it takes,
//      and for a DMA the end of a recent descriptor of its engine that it overlaps). Compute and
//      vector run one instruction at a time; the load/store queues start in order on the first
//      free of load_channels/store_channels channels.
//   3. Duration: IdealCycles (each instruction as if alone; bank conflicts are not modelled),
//      a DMA stretched by a fluid model of the shared DRAM bus (dram_bus.h).
//   4. Completion: DMA queues retire in order; tokens are given at completion.
//   5. The DRAM data bus is shared by every channel: the total is at least the first fetch,
//      one latency and the data cycles of all transfers together.
// Fails (FailedPrecondition) if the tokens deadlock or a wait finds no earlier signal: run
// CheckTokenProtocol first. `timeline`, if given, receives one entry per instruction: the
// platform's record type (hw/spec/insn_record.h), of which the exact replay fills dispatch,
// start, end, retire and queue, cycles from the doorbell.
struct CostOptions {
  bool exact = true;
  // The DRAM offset of insns[0]'s word: where instruction fetches land in a DRAM standard's rows
  // (exact only; IDEAL does not care).
  uint64_t instruction_offset = 0;
};
StatusOr<CostEstimate> PredictCost(const spec::NpuConfig& config,
                                   const std::vector<spec::Instruction>& insns,
                                   std::vector<spec::InsnRecord>* timeline = nullptr,
                                   const CostOptions& options = {});

// Duration of one instruction running alone (step 3 without the shared DRAM bus).
uint64_t InstructionCycles(const spec::NpuConfig& config, const spec::Instruction& insn);

}  // namespace npu::compiler
