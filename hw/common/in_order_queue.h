// The loop of a single-issue queue (compute, vector): take the next instruction, wait for its
// tokens, execute it, give its tokens, retire it. Accounts busy and waiting cycles.
#pragma once

#include <string>
#include <systemc>

#include "hw/common/unit_context.h"

namespace npu::hw {

// `execute(const QueuedInsn&) -> UnitResult` does the unit's work and its own waits.
template <class Execute>
void RunInOrderQueue(UnitContext& ctx, spec::Queue queue, sc_core::sc_fifo<QueuedInsn>& fifo,
                     const std::string& engine, Execute&& execute) {
  using spec::regs::QueueCounter;
  for (;;) {
    const QueuedInsn item = fifo.read();
    if (ctx.control->faulted()) continue;  // a failed run drops what is still queued
    const uint64_t t0 = ctx.clock.Now();
    const TokenSync::Waited waited = ctx.tokens.Acquire(queue, item.insn.wait_mask);
    const uint64_t t1 = ctx.clock.Now();
    ctx.counters.AddQueue(queue, QueueCounter::kWaitInputCycles, waited.input_cycles);
    ctx.counters.AddQueue(queue, QueueCounter::kWaitBufferCycles, waited.buffer_cycles);
    TraceWaits(ctx, engine, t0, waited.input_cycles, waited.buffer_cycles, item.index);
    const UnitResult result = execute(item);
    const uint64_t t2 = ctx.clock.Now();
    ctx.counters.AddQueue(queue, QueueCounter::kBusyCycles, t2 - t1);
    ctx.counters.AddQueue(queue, QueueCounter::kQueueInstructions, 1);
    ctx.counters.AddQueue(queue, QueueCounter::kBankConflictCycles, result.bank_conflict_cycles);
    ctx.counters.AddQueue(queue, QueueCounter::kSramBoundCycles, result.sram_bound_cycles);
    Record(ctx, item.index, queue, t1, t2, waited.input_cycles, waited.buffer_cycles, result);
    Trace(ctx, engine, std::string(spec::OpcodeName(item.insn.opcode)), t1, t2, item.index);
    if (!result.ok()) {
      ctx.control->Fault(result.code, item.index, result.detail);
      continue;
    }
    ctx.tokens.Release(queue, item.insn.signal_mask);
    ctx.control->Retire(queue, item.index);
  }
}

}  // namespace npu::hw
