// The DMA engines of the event replay, as hw/dma runs them.
#include "compiler/cost/replay_units.h"
#include "hw/spec/semantics.h"

namespace npu::compiler::replay {
namespace {

// The burst pipeline's memories in the replay: the shared DRAM controller and SRAM bank timer.
class ReplayMemories : public spec::DmaBurstPipeline::Memories {
 public:
  ReplayMemories(Shared& s, const std::vector<spec::Burst>& bursts, bool load)
      : s_(s), bursts_(bursts), load_(load) {}
  uint64_t Dram(size_t index, uint64_t at) override {
    const spec::Burst& b = bursts_[index];
    return s_.Dram(at, b.dram_offset, b.bytes, !load_);
  }
  uint64_t Sram(size_t index, uint64_t at) override {  // a LOAD's write, a STORE's read
    return s_.banks
        .Book(spec::BurstSramAccess(bursts_[index],
                                    load_ ? spec::Opcode::kLoad : spec::Opcode::kStore),
              at)
        .finish;
  }

 private:
  Shared& s_;
  const std::vector<spec::Burst>& bursts_;
  bool load_;
};

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

// The channel's loop: start, then at each wake advance hw/dma's burst pipeline; when it is done,
// the descriptor is.
bool DmaEngine::StepChannel(Shared& s, Channel& ch) {
  if (!ch.job || s.now < ch.wake || ch.kicked) return false;
  const size_t i = ch.job->insn;
  ReplayMemories memories(s, ch.bursts, load_);  // bound to ch.bursts, filled at the start
  if (!ch.pipeline) {
    ch.bursts = spec::SplitIntoBursts(s.c, std::get<spec::DmaArgs>(s.insns[i].args));
    s.timeline[i].start = s.now;
    const uint64_t bytes = spec::DmaBytes(std::get<spec::DmaArgs>(s.insns[i].args));
    (load_ ? s.cost.dram_read_bytes : s.cost.dram_write_bytes) += bytes;
    ch.pipeline.emplace(load_, ch.bursts.size(), outstanding_);
    ch.wake = ch.pipeline->Start(s.now, memories);
  } else {
    ch.wake = ch.pipeline->Advance(s.now, memories);
  }
  if (!ch.pipeline->done()) return true;
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
