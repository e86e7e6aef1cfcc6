// Internal to the event replay (event_replay.h): the state every simulated unit shares, and the
// units themselves (command processor, compute/vector units, DMA engines). Each unit is a state
// machine: Step() does everything it can at the current instant and says whether it did
// anything; Wake() is the next instant it waits for (kNever if it waits for another unit).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "compiler/cost/cost_model.h"
#include "hw/spec/dma_burst_pipeline.h"
#include "hw/spec/dma_dispatch.h"
#include "hw/spec/dram_controller.h"
#include "hw/spec/footprint.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/sram_bank_timer.h"
#include "hw/spec/timing_model.h"
#include "hw/spec/token_counts.h"

namespace npu::compiler::replay {

inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
inline constexpr int kQueues = spec::kNumQueues;

// What every unit shares: the instant, tokens, queues, the DRAM bus, the SRAM banks, results.
struct Shared {
  Shared(const spec::NpuConfig& config, const std::vector<spec::Instruction>& instructions,
         uint64_t instruction_offset)
      : c(config),
        insns(instructions),
        insn_offset(instruction_offset),
        banks(config),
        dram(config),
        timeline(instructions.size()),
        done(instructions.size(), false) {}

  // A DRAM request made at `at`: when its data has crossed the bus. Requests reach the
  // controller in the order the platform's DRAM receives them.
  uint64_t Dram(uint64_t at, uint64_t addr, uint64_t bytes, bool write) {
    return dram.Access(at, addr, bytes, write);
  }
  static spec::Queue QueueAt(int q) { return static_cast<spec::Queue>(q); }
  // Whether instruction i of queue q may take its tokens now. Tokens count as soon as they are
  // given, but a unit already `blocked` on them wakes a delta later (hw's TokenSync wakes the
  // blocked queues a delta after, in its fixed order, and a woken queue takes no token given in
  // the delta it woke in): after everything else due in the delta they were given in.
  bool Ready(size_t i, int q, bool blocked) const {
    if (!tokens.Has(QueueAt(q), insns[i].wait_mask)) return false;
    for (int p = 0; p < kQueues && blocked; ++p) {
      if ((insns[i].wait_mask >> p & 1) && given_in[p][q] == delta) return false;
    }
    return true;
  }
  void TakeTokens(size_t i, int q) { tokens.Take(QueueAt(q), insns[i].wait_mask); }
  // Ends the delta: true if tokens were given in it (their waiters act in the next one).
  bool NextDelta() {
    const bool given = given_this_delta;
    given_this_delta = false;
    ++delta;
    return given;
  }
  void Retire(size_t i, int q) {
    tokens.Give(QueueAt(q), insns[i].signal_mask);
    for (int p = 0; p < kQueues; ++p) {
      if (!(insns[i].signal_mask >> p & 1)) continue;
      given_in[q][p] = delta;
      given_this_delta = true;
    }
    timeline[i].retire = now;
    timeline[i].queue = static_cast<int8_t>(q);
    done[i] = true;
    cost.cycles = std::max(cost.cycles, now);
    ++retired;
  }

  const spec::NpuConfig& c;
  const std::vector<spec::Instruction>& insns;
  uint64_t insn_offset;  // DRAM offset of insns[0]
  spec::SramBankTimer banks;
  spec::DramController dram;
  uint64_t now = 0;
  spec::TokenCounts tokens;
  std::array<std::array<uint64_t, kQueues>, kQueues> given_in{};  // delta of the last give
  uint64_t delta = 1;                                             // every delta of every instant
  bool given_this_delta = false;
  std::array<std::deque<size_t>, kQueues> fifo;  // dispatched, not yet taken
  std::vector<spec::InsnRecord> timeline;
  std::vector<bool> done;  // retired
  CostEstimate cost;
  size_t retired = 0;
};

// Fetch and dispatch, in stream order.
class CommandProcessor {
 public:
  bool Step(Shared& s);
  uint64_t Wake() const { return fetch_done_; }

 private:
  size_t next_ = 0, batch_end_ = 0;
  uint64_t fetch_done_ = kNever;
};

// The MAC array or the vector unit: one instruction at a time.
class Unit {
 public:
  explicit Unit(int queue) : q_(queue) {}
  bool Step(Shared& s);
  uint64_t Wake() const { return busy_ ? end_ : kNever; }

 private:
  void Start(Shared& s);

  int q_;
  bool taken_ = false, busy_ = false;
  bool blocked_ = false;  // found its tokens missing
  size_t insn_ = 0;
  uint64_t end_ = 0;
  spec::FoldChain chain_;  // CONVs only: hw/mac_array's
};

// A DMA engine: spec::DmaDispatch's rule (tokens first, then no hazard and a free channel; in-order
// retirement), each channel's spec::DmaBurstPipeline, channels due together in the rule's priority.
class DmaEngine {
 public:
  DmaEngine(const spec::NpuConfig& config, spec::Queue queue);
  bool Step(Shared& s);
  // Starts the channels Step gave a descriptor: they act after the command processor of the
  // same pass (in hw/dma the dispatcher kicks the channels a delta after the event that freed a
  // channel, by which time the command processor, woken by that event too, has asked DRAM for
  // its next batch), and before the units of the next pass.
  bool StartKicked(Shared& s);
  uint64_t Wake() const;
  // A finished descriptor retires (gives its tokens) a delta after its channel finishes it, as
  // hw/dma's in-order retirement wakes on the channel's delta notification.
  bool RetiresNextDelta() const { return dispatch_.Retirable().has_value(); }
  // A descriptor held (a busy channel, a hazard) re-checks a delta after a channel finishes or a
  // descriptor retires, as hw/dma's dispatcher wakes on their delta notification.
  bool DispatchesNextDelta(const Shared& s) const {
    return pending_ && pending_->held && wake_delta_ == s.delta + 1;
  }

 private:
  struct Channel {
    size_t insn = 0;
    std::vector<spec::Burst> bursts;
    std::optional<spec::DmaBurstPipeline> pipeline;  // set when started (hw/dma's rule)
    uint64_t wake = kNever;
    bool kicked = false;  // given a descriptor in this pass: starts in StartKicked
  };
  struct Pending {  // taken from the queue, not yet on a channel
    size_t insn;
    std::vector<spec::Footprint> footprint;
    bool has_tokens = false;
    bool blocked = false;  // found its tokens missing
    bool held = false;     // found held (DmaDispatch::Holds): waits for the next notification
  };
  // A channel finished or a descriptor retired in this delta: a held descriptor re-checks next.
  void Notify(const Shared& s) { wake_delta_ = std::min(wake_delta_, s.delta + 1); }

  bool Dispatch(Shared& s);
  bool StepChannel(Shared& s, size_t channel);
  bool RetireInOrder(Shared& s);

  int q_;
  bool load_;
  size_t outstanding_;
  spec::DmaDispatch dispatch_;
  std::vector<Channel> channels_;
  std::optional<Pending> pending_;
  std::unordered_map<size_t, uint64_t> finished_in_;  // a finished descriptor's delta
  uint64_t wake_delta_ = kNever;  // the delta a held descriptor re-checks in (Notify)
};

}  // namespace npu::compiler::replay
