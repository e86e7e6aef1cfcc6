// DMA dispatch, channels and in-order retirement.
#include "hw/dma/dma_engine.h"

#include <fmt/format.h>

#include <algorithm>

#include "hw/common/payload.h"

namespace npu::hw {

using spec::regs::ErrorCode;
using spec::regs::QueueCounter;

DmaEngine::DmaEngine(sc_core::sc_module_name name, UnitContext& ctx, spec::Opcode direction,
                     uint32_t channels)
    : sc_module(name),
      queue(ctx.config.cmd().queue_depth()),
      ctx_(ctx),
      direction_(direction),
      queue_id_(spec::QueueOf(direction)),
      engine_(spec::QueueName(queue_id_)),
      channel_job_(channels),
      kick_(new sc_core::sc_event[channels]) {
  SC_THREAD(Dispatch);
  SC_THREAD(RetireInOrder);
  for (uint32_t c = 0; c < channels; ++c) {
    sc_core::sc_spawn(sc_bind(&DmaEngine::Channel, this, int(c)),
                      fmt::format("channel{}", c).c_str());
  }
}

bool DmaEngine::OverlapsInFlight(const Job& job) const {
  for (const auto& other : in_order_) {
    if (!other->done && spec::Conflicts(job.footprint, other->footprint)) return true;
  }
  return false;
}

int DmaEngine::FreeChannel() const {
  for (size_t c = 0; c < channel_job_.size(); ++c) {
    if (!channel_job_[c]) return int(c);
  }
  return -1;
}

void DmaEngine::Dispatch() {
  for (;;) {
    QueuedInsn item = queue.read();
    if (ctx_.control->faulted()) continue;
    const uint64_t t0 = ctx_.clock.Now();
    const TokenSync::Waited waited = ctx_.tokens.Acquire(queue_id_, item.insn.wait_mask);
    auto job = std::make_shared<Job>();
    job->footprint = spec::Footprints(item.insn);
    job->wait_input = waited.input_cycles;
    job->wait_buffer = waited.buffer_cycles;
    job->item = std::move(item);
    const uint64_t t1 = ctx_.clock.Now();
    while (OverlapsInFlight(*job)) sc_core::wait(job_done_);  // buffer still being moved
    int channel;
    while ((channel = FreeChannel()) < 0) sc_core::wait(job_done_);
    const uint64_t t2 = ctx_.clock.Now();
    ctx_.counters.AddQueue(queue_id_, QueueCounter::kWaitInputCycles, waited.input_cycles);
    ctx_.counters.AddQueue(queue_id_, QueueCounter::kWaitBufferCycles, waited.buffer_cycles);
    TraceWaits(ctx_, engine_ + ".dispatch", t0, waited.input_cycles, waited.buffer_cycles,
               job->item.index);
    Trace(ctx_, engine_ + ".dispatch", "wait channel", t1, t2, job->item.index);
    channel_job_[channel] = job;
    in_order_.push_back(job);
    kick_[channel].notify(sc_core::SC_ZERO_TIME);
  }
}

void DmaEngine::Channel(int channel) {
  const std::string engine = fmt::format("{}.{}", engine_, channel);
  for (;;) {
    while (!channel_job_[channel]) sc_core::wait(kick_[channel]);
    Job& job = *channel_job_[channel];
    const uint64_t begin = ctx_.clock.Now();
    busy_.Begin(begin);
    job.result = Execute(std::get<spec::DmaArgs>(job.item.insn.args));
    const uint64_t end = ctx_.clock.Now();
    ctx_.counters.AddQueue(queue_id_, QueueCounter::kBusyCycles, busy_.End(end));
    ctx_.counters.AddQueue(queue_id_, QueueCounter::kQueueInstructions, 1);
    ctx_.counters.AddQueue(queue_id_, QueueCounter::kBankConflictCycles,
                           job.result.bank_conflict_cycles);
    ctx_.counters.AddQueue(queue_id_, QueueCounter::kDramStallCycles, job.result.dram_stall_cycles);
    Record(ctx_, job.item.index, queue_id_, begin, end, job.wait_input, job.wait_buffer,
           job.result);
    Trace(ctx_, engine, std::string(spec::OpcodeName(direction_)), begin, end, job.item.index);
    job.done = true;
    channel_job_[channel].reset();
    job_done_.notify(sc_core::SC_ZERO_TIME);
  }
}

void DmaEngine::RetireInOrder() {
  for (;;) {
    while (in_order_.empty() || !in_order_.front()->done) sc_core::wait(job_done_);
    const std::shared_ptr<Job> job = in_order_.front();
    in_order_.pop_front();
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

UnitResult DmaEngine::Execute(const spec::DmaArgs& dma) {
  const uint64_t sram_end = dma.sram_addr + spec::DmaSramExtent(dma);
  if (sram_end > ctx_.config.sram().size_bytes()) {
    return {ErrorCode::kSramRange,
            fmt::format("{} touches SRAM up to {} of {} bytes", spec::OpcodeName(direction_),
                        sram_end, ctx_.config.sram().size_bytes())};
  }
  const std::vector<spec::Burst> bursts = spec::SplitIntoBursts(ctx_.config, dma);
  const uint64_t begin = ctx_.clock.Now();
  SramTiming traffic;
  UnitResult result = Transfer(bursts, traffic);
  const uint64_t conflict = traffic.conflict_cycles;
  const uint64_t took = ctx_.clock.Now() - begin;
  const uint64_t ideal = spec::DmaIdealCycles(ctx_.config, direction_, bursts);
  // What the descriptor lost against running alone, split by cause. Bursts overlap, so the
  // bank-conflict cycles of individual bursts can add up to more than was lost; they explain at
  // most the loss, and DRAM contention the rest.
  const uint64_t lost = took > ideal ? took - ideal : 0;
  result.bank_conflict_cycles = std::min(conflict, lost);
  result.dram_stall_cycles = lost - result.bank_conflict_cycles;
  const uint64_t bytes = spec::DmaBytes(dma);
  ctx_.counters.Add(
      direction_ == spec::Opcode::kLoad ? spec::regs::kDramReadBytes : spec::regs::kDramWriteBytes,
      bytes);
  result.events.dma_bytes = bytes;
  (direction_ == spec::Opcode::kLoad ? result.events.dram_read_bytes
                                     : result.events.dram_write_bytes) = bytes;
  traffic.AddTo(result.events);
  return result;
}

}  // namespace npu::hw
