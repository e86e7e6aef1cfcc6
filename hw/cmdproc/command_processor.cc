// Fetch, decode, dispatch, completion.
#include "hw/cmdproc/command_processor.h"

#include <fmt/format.h>

#include <algorithm>

#include "hw/common/payload.h"

namespace npu::hw {

using spec::regs::ErrorCode;

CommandProcessor::CommandProcessor(
    sc_core::sc_module_name name, UnitContext& ctx,
    std::array<sc_core::sc_fifo<QueuedInsn>*, spec::kNumQueues> queues)
    : sc_module(name), ctx_(ctx), queues_(queues) {
  SC_THREAD(Run);
}

void CommandProcessor::BeginRun() {
  ctx_.counters.Reset();
  ctx_.tokens.Reset();
  if (ctx_.trace != nullptr) ctx_.trace->clear();
  ctx_.run.begin_cycle = ctx_.clock.Now();
  if (ctx_.records != nullptr) ctx_.records->assign(ctx_.run.insn_count, InsnRecord{});
  dispatched_ = retired_count_ = 0;
  faulted_ = false;
  ctx_.run.error = ErrorCode::kNone;
  ctx_.run.error_insn = 0;
  ctx_.run.error_detail.clear();
}

void CommandProcessor::Run() {
  for (;;) {
    sc_core::wait(start_);
    BeginRun();
    const uint32_t count = ctx_.run.insn_count;
    for (uint64_t first = 0; first < count && !faulted_;) {
      const spec::FetchBatch batch = spec::FetchBatchAt(ctx_.config, first, count);
      if (!FetchAndDispatch(batch)) break;
      first += batch.count;
    }
    while (!faulted_ && retired_count_ < dispatched_) sc_core::wait(retired_);
    ctx_.counters.Set(spec::regs::kCycles, ctx_.clock.Now() - ctx_.run.begin_cycle);
    ctx_.counters.Set(spec::regs::kInstructions, retired_count_);
    ctx_.run.busy = false;
    ctx_.run.done = true;
    completed.notify(sc_core::SC_ZERO_TIME);
  }
}

bool CommandProcessor::FetchAndDispatch(const spec::FetchBatch& batch) {
  const auto first = static_cast<uint32_t>(batch.first);
  const auto count = static_cast<uint32_t>(batch.count);
  const uint64_t begin = ctx_.clock.Now();
  words_.resize(batch.bytes());
  tlm::tlm_generic_payload gp;
  const uint64_t addr = ctx_.run.dram_base + ctx_.run.insn_offset + batch.offset();
  MakePayload(gp, tlm::TLM_READ_COMMAND, addr, words_.data(), static_cast<uint32_t>(words_.size()));
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  bus->b_transport(gp, delay);
  ctx_.unit_timer.Wait(UnitTimer::Waker::kFetch, ctx_.clock.ToCycles(delay));
  const uint64_t end = ctx_.clock.Now();
  ctx_.counters.Add(spec::regs::kFetchCycles, end - begin);
  ctx_.counters.Add(spec::regs::kDramReadBytes, words_.size());
  Trace(ctx_, "fetch", "fetch", begin, end, first);
  if (!gp.is_response_ok()) {
    Fault(ErrorCode::kBusError, first,
          fmt::format("instruction fetch at bus address {:#x} is outside DRAM", addr));
    return false;
  }
  for (uint32_t i = 0; i < count && !faulted_; ++i) {
    StatusOr<spec::Instruction> insn = spec::Decode(&words_[uint64_t{i} * spec::kInsnBytes]);
    if (!insn.ok()) {
      Fault(ErrorCode::kBadInstruction, first + i, insn.status().message());
      return false;
    }
    RecordFetch(ctx_, first + i);
    Dispatch({*std::move(insn), first + i});
  }
  return !faulted_;
}

void CommandProcessor::Dispatch(QueuedInsn item) {
  sc_core::sc_fifo<QueuedInsn>& fifo = *queues_[static_cast<int>(item.insn.queue())];
  const uint32_t index = item.index;
  const uint64_t begin = ctx_.clock.Now();
  fifo.write(std::move(item));  // blocks while the queue is full: its depth is cmd.queue_depth
  const uint64_t end = ctx_.clock.Now();
  RecordDispatch(ctx_, index, end);
  ctx_.counters.Add(spec::regs::kDispatchStallCycles, end - begin);
  Trace(ctx_, "fetch", "queue full", begin, end, -1);
  ++dispatched_;
}

void CommandProcessor::Retire(spec::Queue queue, uint32_t index) {
  RecordRetire(ctx_, index, ctx_.clock.Now());
  ++retired_count_;
  retired_.notify(sc_core::SC_ZERO_TIME);
}

void CommandProcessor::Fault(ErrorCode code, uint32_t index, const std::string& detail) {
  if (faulted_) return;  // the first fault is the one reported
  faulted_ = true;
  ctx_.run.error = code;
  ctx_.run.error_insn = index;
  ctx_.run.error_detail = fmt::format("instruction {}: {}", index, detail);
  retired_.notify(sc_core::SC_ZERO_TIME);
}

std::string CommandProcessor::DescribeState() const {
  std::string text = fmt::format("{} of {} instructions dispatched, {} retired", dispatched_,
                                 ctx_.run.insn_count, retired_count_);
  for (int q = 0; q < spec::kNumQueues; ++q) {
    const spec::Queue queue = spec::Queue(q);
    const uint64_t retired =
        ctx_.counters.Get(spec::regs::QueueCounterId(queue, spec::regs::kQueueInstructions));
    const std::string counts =
        fmt::format("{} retired, {} queued", retired, queues_[q]->num_available());
    const int blocked_on = ctx_.tokens.BlockedOn(queue);
    if (blocked_on >= 0) {
      text += fmt::format("; {} queue waits for a token from the {} queue ({})",
                          spec::QueueName(queue), spec::QueueName(spec::Queue(blocked_on)), counts);
    } else {
      text += fmt::format("; {} queue: {}", spec::QueueName(queue), counts);
    }
  }
  return text;
}

}  // namespace npu::hw
