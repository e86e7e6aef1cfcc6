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
      dispatch_(load_ ? c.dma().load_channels() : c.dma().store_channels()),
      channels_(dispatch_.channels()) {}

bool DmaEngine::Step(Shared& s) {
  bool moved = false;
  for (bool again = true; again;) {
    again = false;
    for (const size_t channel : dispatch_.ChannelPriority()) again |= StepChannel(s, channel);
    again |= RetireInOrder(s);
    again |= Dispatch(s);
    moved |= again;
  }
  return moved;
}

bool DmaEngine::StartKicked(Shared& s) {
  bool moved = false;
  for (const size_t channel : dispatch_.ChannelPriority()) {
    if (!channels_[channel].kicked) continue;
    channels_[channel].kicked = false;
    moved |= StepChannel(s, channel);
  }
  return moved;
}

uint64_t DmaEngine::Wake() const {
  uint64_t wake = kNever;
  for (size_t c = 0; c < channels_.size(); ++c) {
    if (dispatch_.busy(c)) wake = std::min(wake, channels_[c].wake);
  }
  return wake;
}

// The dispatcher: the next descriptor, its tokens, then what spec::DmaDispatch says.
bool DmaEngine::Dispatch(Shared& s) {
  bool moved = false;
  for (;;) {
    if (!pending_) {
      if (s.fifo[q_].empty()) return moved;
      const size_t i = s.fifo[q_].front();
      s.fifo[q_].pop_front();
      pending_ = Pending{i, spec::Footprints(s.insns[i])};
      moved = true;
    }
    if (!pending_->has_tokens) {
      if (!s.Ready(pending_->insn, q_, pending_->blocked)) {
        pending_->blocked = true;
        return moved;
      }
      s.TakeTokens(pending_->insn, q_);
      pending_->has_tokens = moved = true;
    }
    // Held, it re-checks a delta after what freed it (Notify), as hw/dma's dispatcher wakes.
    if (pending_->held && s.delta < wake_delta_) return moved;
    if (dispatch_.Holds(pending_->footprint) != spec::DmaDispatch::Held::kNo) {
      pending_->held = true;
      wake_delta_ = kNever;  // until the next notification
      return moved;
    }
    const size_t channel =
        dispatch_.Start(static_cast<uint32_t>(pending_->insn), std::move(pending_->footprint));
    Channel& ch = channels_[channel] = Channel{};
    ch.insn = pending_->insn;
    ch.wake = s.now;  // the channel starts at this instant, after its kick
    ch.kicked = true;
    pending_.reset();
    moved = true;
  }
}

// The channel's loop: start, then at each wake advance hw/dma's burst pipeline; when it is done,
// the descriptor is.
bool DmaEngine::StepChannel(Shared& s, size_t channel) {
  Channel& ch = channels_[channel];
  if (!dispatch_.busy(channel) || s.now < ch.wake || ch.kicked) return false;
  const size_t i = ch.insn;
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
  dispatch_.Finish(channel);
  Notify(s);
  finished_in_[i] = s.delta;
  ch = Channel{};
  return true;
}

bool DmaEngine::RetireInOrder(Shared& s) {
  bool moved = false;
  for (std::optional<uint32_t> i; (i = dispatch_.Retirable()) && finished_in_[*i] < s.delta;) {
    dispatch_.Retire();
    Notify(s);
    finished_in_.erase(*i);
    s.Retire(*i, q_);
    moved = true;
  }
  return moved;
}

}  // namespace npu::compiler::replay
