// DMA dispatch, channels and in-order retirement.
#include "hw/dma/dma_engine.h"

#include <fmt/format.h>

#include <algorithm>

#include "hw/common/payload.h"

namespace npu::hw {

using spec::regs::ErrorCode;
using spec::regs::QueueCounter;

DmaEngine::DmaEngine(sc_core::sc_module_name name, UnitContext& ctx, spec::Opcode direction,
                     uint32_t channels, DmaChannelScheduler& scheduler)
    : sc_module(name),
      queue(ctx.config.cmd().queue_depth()),
      ctx_(ctx),
      direction_(direction),
      queue_id_(spec::QueueOf(direction)),
      engine_(spec::QueueName(queue_id_)),
      dispatch_(channels),
      channels_(channels),
      scheduler_(scheduler) {
  SC_THREAD(Dispatch);
  SC_THREAD(RetireInOrder);
}

void DmaEngine::Dispatch() {
  for (;;) {
    QueuedInsn item = queue.read();
    if (ctx_.control->faulted()) continue;
    const uint64_t t0 = ctx_.clock.Now();
    const TokenSync::Waited waited = ctx_.tokens.Acquire(queue_id_, item.insn.wait_mask);
    auto job = std::make_shared<Job>();
    std::vector<spec::Footprint> footprint = spec::Footprints(item.insn);
    job->wait_input = waited.input_cycles;
    job->wait_buffer = waited.buffer_cycles;
    job->item = std::move(item);
    const uint64_t t1 = ctx_.clock.Now();
    // A buffer still being moved, or every channel busy.
    while (dispatch_.Holds(footprint) != spec::DmaDispatch::Held::kNo) sc_core::wait(job_done_);
    const uint64_t t2 = ctx_.clock.Now();
    ctx_.counters.AddQueue(queue_id_, QueueCounter::kWaitInputCycles, waited.input_cycles);
    ctx_.counters.AddQueue(queue_id_, QueueCounter::kWaitBufferCycles, waited.buffer_cycles);
    TraceWaits(ctx_, engine_ + ".dispatch", t0, waited.input_cycles, waited.buffer_cycles,
               job->item.index);
    Trace(ctx_, engine_ + ".dispatch", "wait channel", t1, t2, job->item.index);
    const size_t channel = dispatch_.Start(job->item.index, std::move(footprint));
    jobs_[job->item.index] = job;
    channels_[channel] = Transfer{};
    channels_[channel].job = std::move(job);
    channels_[channel].kicked = true;
    scheduler_.Kick();
  }
}

uint64_t DmaEngine::StepChannels() {
  uint64_t next = DmaChannelScheduler::kIdle;
  for (const size_t channel : dispatch_.ChannelPriority()) {
    if (StepChannel(channel)) next = std::min(next, channels_[channel].wake);
  }
  return next;
}

bool DmaEngine::StepChannel(size_t channel) {
  Transfer& t = channels_[channel];
  if (!t.job) return false;
  if (t.kicked) {
    t.kicked = false;
    StartTransfer(t);
  }
  while (!TransferDone(t) && t.wake <= ctx_.clock.Now()) AdvanceTransfer(t);
  if (!TransferDone(t)) return true;
  FinishTransfer(channel);
  return false;
}

void DmaEngine::FinishTransfer(size_t channel) {
  Transfer& t = channels_[channel];
  Job& job = *t.job;
  job.result = TransferResult(t);
  const uint64_t end = ctx_.clock.Now();
  ctx_.counters.AddQueue(queue_id_, QueueCounter::kBusyCycles, busy_.End(end));
  ctx_.counters.AddQueue(queue_id_, QueueCounter::kQueueInstructions, 1);
  ctx_.counters.AddQueue(queue_id_, QueueCounter::kBankConflictCycles,
                         job.result.bank_conflict_cycles);
  ctx_.counters.AddQueue(queue_id_, QueueCounter::kDramStallCycles, job.result.dram_stall_cycles);
  Record(ctx_, job.item.index, queue_id_, t.begin, end, job.wait_input, job.wait_buffer,
         job.result);
  Trace(ctx_, fmt::format("{}.{}", engine_, channel), std::string(spec::OpcodeName(direction_)),
        t.begin, end, job.item.index);
  dispatch_.Finish(channel);
  t = Transfer{};
  job_done_.notify(sc_core::SC_ZERO_TIME);
}

void DmaEngine::RetireInOrder() {
  for (;;) {
    std::optional<uint32_t> index;
    while (!(index = dispatch_.Retire())) sc_core::wait(job_done_);
    const auto it = jobs_.find(*index);
    const std::shared_ptr<Job> job = it->second;
    jobs_.erase(it);
    job_done_.notify(sc_core::SC_ZERO_TIME);  // a hazard may have cleared
    if (ctx_.control->faulted()) continue;
    if (!job->result.ok()) {
      ctx_.control->Fault(job->result.code, job->item.index, job->result.detail);
      continue;
    }
    ctx_.tokens.Release(queue_id_, job->item.insn.signal_mask);
    ctx_.control->Retire(queue_id_, job->item.index);
  }
}

}  // namespace npu::hw
