// The command processor and the single-issue units of the event replay.
#include "compiler/cost/replay_units.h"

#include "hw/spec/command_fetch.h"
#include "hw/spec/operand_stream.h"
#include "hw/spec/semantics.h"

namespace npu::compiler::replay {

bool CommandProcessor::Step(Shared& s) {
  bool moved = false;
  for (;;) {
    if (next_ == batch_end_) {
      if (next_ == s.insns.size()) return moved;
      const spec::FetchBatch batch = spec::FetchBatchAt(s.c, next_, s.insns.size());
      if (fetch_done_ == kNever) {  // request the next batch
        fetch_done_ = s.Dram(s.now, s.insn_offset + batch.offset(), batch.bytes(), false);
        s.cost.dram_read_bytes += batch.bytes();
        return true;
      }
      if (s.now < fetch_done_) return moved;
      fetch_done_ = kNever;
      batch_end_ = batch.first + batch.count;
    }
    const int q = static_cast<int>(s.insns[next_].queue());
    if (!spec::QueueAccepts(s.c, s.fifo[q].size())) return moved;
    s.timeline[next_].dispatch = s.now;
    s.fifo[q].push_back(next_++);
    moved = true;
  }
}

bool Unit::Step(Shared& s) {
  bool moved = false;
  for (;;) {
    if (busy_) {
      if (s.now < end_) return moved;
      s.timeline[insn_].end = end_;
      s.Retire(insn_, q_);
      busy_ = taken_ = false;
      moved = true;
    }
    if (!taken_) {
      if (s.fifo[q_].empty()) return moved;
      insn_ = s.fifo[q_].front();
      s.fifo[q_].pop_front();
      taken_ = moved = true;
      blocked_ = false;
    }
    if (!s.Ready(insn_, q_, blocked_)) {
      blocked_ = true;
      return moved;
    }
    s.TakeTokens(insn_, q_);
    Start(s);
    moved = true;
  }
}

// IdealCycles (a CONV's folds chained or not, as hw/mac_array decides) plus what busy banks cost:
// a vector unit's SRAM accesses back to back from now, a CONV's operand stream (as hw/mac_array
// books it).
void Unit::Start(Shared& s) {
  const spec::Instruction& insn = s.insns[insn_];
  s.timeline[insn_].start = s.now;
  if (const auto* conv = std::get_if<spec::ConvArgs>(&insn.args)) {
    s.cost.macs += spec::ConvMacs(*conv);
    const spec::ConvArgs* chained_after = chain_.Predecessor(s.c, *conv, s.now);
    const uint64_t ideal = spec::IdealCycles(s.c, insn, chained_after);
    const uint64_t words = spec::ConvStreamReads(s.c, *conv).words;
    end_ = s.banks.BookStream(conv->in_addr, words, s.now, ideal) + ideal;
    chain_.Ended(*conv, end_);
  } else {
    uint64_t at = s.now, ideal = 0;
    for (const spec::SramAccess& a : spec::UnitSramAccesses(insn)) {
      at = s.banks.Book(a, at).finish;
      ideal += spec::SramIdealCycles(s.c, a);
    }
    const uint64_t conflict = at - s.now > ideal ? at - s.now - ideal : 0;
    end_ = s.now + spec::IdealCycles(s.c, insn) + conflict;
  }
  s.cost.busy_cycles[q_] += end_ - s.now;
  busy_ = true;
}

}  // namespace npu::compiler::replay
