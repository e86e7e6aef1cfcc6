// The DMA engines of the event replay, as hw/dma runs them.
#include "compiler/cost/replay_units.h"
#include "hw/spec/semantics.h"

namespace npu::compiler::replay {
namespace {

// The SRAM access of a burst: a LOAD's write (scattered or not), a STORE's read.
spec::SramAccess SramAccessOf(const spec::Burst& b, bool load) {
  return spec::BurstSramAccess(b, load ? spec::Opcode::kLoad : spec::Opcode::kStore);
}

}  // namespace

DmaEngine::DmaEngine(const spec::NpuConfig& c, spec::Queue queue)
    : q_(static_cast<int>(queue)),
      load_(queue == spec::Queue::kLoad),
      outstanding_(c.dma().outstanding_bursts()),
      channels_(load_ ? c.dma().load_channels() : c.dma().store_channels()) {}

bool DmaEngine::Step(Shared& s) {
  bool moved = false;
  for (bool again = true; again;) {
    again = false;
    // Channels woken at the same instant act highest index first, as the SystemC kernel
    // happens to run them (measured: the other order mispredicts same-instant DRAM requests).
    for (auto ch = channels_.rbegin(); ch != channels_.rend(); ++ch) {
      again |= StepChannel(s, *ch);
    }
    again |= RetireInOrder(s);
    again |= Dispatch(s);
    moved |= again;
  }
  return moved;
}

bool DmaEngine::StartKicked(Shared& s) {
  bool moved = false;
  for (auto ch = channels_.rbegin(); ch != channels_.rend(); ++ch) {
    if (!ch->kicked) continue;
    ch->kicked = false;
    moved |= StepChannel(s, *ch);
  }
  return moved;
}

uint64_t DmaEngine::Wake() const {
  uint64_t wake = kNever;
  for (const Channel& ch : channels_) {
    if (ch.job) wake = std::min(wake, ch.wake);
  }
  return wake;
}

// The dispatcher: the next descriptor, its tokens, no overlap with one in flight, a channel.
bool DmaEngine::Dispatch(Shared& s) {
  bool moved = false;
  for (;;) {
    if (!pending_) {
      if (s.fifo[q_].empty()) return moved;
      const size_t i = s.fifo[q_].front();
      s.fifo[q_].pop_front();
      pending_ = std::make_shared<Job>(Job{i, spec::Footprints(s.insns[i])});
      has_tokens_ = blocked_ = false;
      moved = true;
    }
    if (!has_tokens_) {
      if (!s.Ready(pending_->insn, q_, blocked_)) {
        blocked_ = true;
        return moved;
      }
      s.TakeTokens(pending_->insn, q_);
      has_tokens_ = moved = true;
    }
    for (const auto& job : in_order_) {
      if (!job->done && spec::Conflicts(pending_->footprint, job->footprint)) return moved;
    }
    auto free =
        std::find_if(channels_.begin(), channels_.end(), [](const Channel& ch) { return !ch.job; });
    if (free == channels_.end()) return moved;
    *free = Channel{};
    free->job = pending_;
    free->wake = s.now;  // the channel starts at this instant, after its kick
    free->kicked = true;
    in_order_.push_back(std::move(pending_));
    moved = true;
  }
}

// Up to outstanding_bursts requests in flight: a LOAD asks DRAM at once, a STORE first reads
// the burst from SRAM and asks DRAM when that is done.
void DmaEngine::Issue(Shared& s, Channel& ch) {
  for (; ch.next < ch.bursts.size() && ch.in_flight.size() < outstanding_; ++ch.next) {
    const spec::Burst& b = ch.bursts[ch.next];
    const uint64_t at = load_ ? s.now : s.banks.Book(SramAccessOf(b, load_), s.now).finish;
    ch.in_flight.push_back({s.Dram(at, b.dram_offset, b.bytes, !load_), ch.next});
  }
}

// The channel's loop: start, then at each oldest burst's arrival write it (LOAD) and issue
// more; a LOAD ends when its last SRAM write does.
bool DmaEngine::StepChannel(Shared& s, Channel& ch) {
  if (!ch.job || s.now < ch.wake || ch.kicked) return false;
  const size_t i = ch.job->insn;
  if (!ch.started) {
    ch.started = true;
    ch.bursts = spec::SplitIntoBursts(s.c, std::get<spec::DmaArgs>(s.insns[i].args));
    ch.written = s.now;
    s.timeline[i].start = s.now;
    const uint64_t bytes = spec::DmaBytes(std::get<spec::DmaArgs>(s.insns[i].args));
    (load_ ? s.cost.dram_read_bytes : s.cost.dram_write_bytes) += bytes;
    Issue(s, ch);
  } else if (!ch.in_flight.empty()) {
    const spec::Burst& b = ch.bursts[ch.in_flight.front().burst];
    ch.in_flight.pop_front();
    if (load_) {
      ch.written = std::max(ch.written, s.banks.Book(SramAccessOf(b, load_), s.now).finish);
    }
    Issue(s, ch);
  }
  if (!ch.in_flight.empty()) {
    ch.wake = ch.in_flight.front().ready;
    return true;
  }
  if (ch.written > s.now) {
    ch.wake = ch.written;
    return true;
  }
  s.timeline[i].end = s.now;
  s.cost.busy_cycles[q_] += s.now - s.timeline[i].start;
  ch.job->done = true;
  ch.job->done_in = s.delta;
  ch = Channel{};
  ch.wake = kNever;
  return true;
}

bool DmaEngine::RetireInOrder(Shared& s) {
  bool moved = false;
  while (!in_order_.empty() && in_order_.front()->done && in_order_.front()->done_in < s.delta) {
    s.Retire(in_order_.front()->insn, q_);
    in_order_.pop_front();
    moved = true;
  }
  return moved;
}

}  // namespace npu::compiler::replay
