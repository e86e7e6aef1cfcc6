// The cost model's exact replay: the instruction stream run event by event in simulated time,
// with the hardware's own rules (docs/architecture.md, hw/):
//   - command processor: fetches fetch_batch words per DRAM read, waits for them, dispatches
//     them in order into the four queues, blocking while a queue holds queue_depth;
//   - compute and vector units: take the next instruction, wait for its tokens, make their SRAM
//     accesses (hw/spec/sram_bank_timer.h) as they start, run IdealCycles plus the cycles lost to
//     busy banks, give their tokens;
//   - DMA engines: take the next descriptor, wait for its tokens, then until no descriptor in
//     flight on the engine overlaps its footprint, then for a free channel; a channel keeps up
//     to outstanding_bursts bursts in flight on the DRAM bus (first come first served), a LOAD
//     writing each burst to SRAM as its data arrives, a STORE reading it from SRAM as it issues
//     it; descriptors retire (give their tokens) in order;
//   - DRAM: one bus; a request is served at max(issue + latency, bus free) for
//     ceil(bytes / bytes_per_cycle) cycles.
// At one instant, units act in the order compute, vector, load, store, command processor, then
// the DMA channels given a descriptor in that pass start, each going as far as it can before the
// next, and again until nothing moves; so a unit that goes on from its previous instruction acts
// before one woken by the token it gives, and the command processor's fetch request goes to DRAM
// before the first requests of a descriptor dispatched at the same instant, as in SystemC. Then,
// as SystemC's delta cycles: tokens count at once, but a unit already blocked on them wakes only
// in the next delta (after the SRAM accesses and bursts due in this one), and a descriptor
// retires, giving its tokens, a delta after its channel finishes it.
// The timing formulas are hw/spec/timing_model.h's, so this is the hardware's timing up to the
// order of simultaneous events.
#pragma once

#include <vector>

#include "compiler/cost/cost_model.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// FailedPrecondition, naming the blocked queues, if the tokens deadlock. `instruction_offset`:
// the DRAM offset of insns[0], where the command processor fetches from.
StatusOr<CostEstimate> EventReplay(const spec::NpuConfig& config,
                                   const std::vector<spec::Instruction>& insns,
                                   std::vector<spec::InsnRecord>* timeline,
                                   uint64_t instruction_offset = 0);

}  // namespace npu::compiler
