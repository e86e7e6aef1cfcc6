// The event replay's loop: every unit steps at the current instant until nothing moves, then
// time jumps to the earliest instant a unit waits for.
#include "compiler/cost/event_replay.h"

#include <fmt/format.h>

#include "compiler/cost/replay_units.h"

namespace npu::compiler {
namespace {

// Names, per queue, the oldest instruction not retired and the tokens it lacks.
Status Deadlock(const replay::Shared& s) {
  std::string blocked;
  std::array<bool, replay::kQueues> named{};
  for (size_t i = 0; i < s.insns.size(); ++i) {
    const int q = static_cast<int>(s.insns[i].queue());
    if (s.done[i] || named[q]) continue;
    named[q] = true;
    std::string from;
    for (int p = 0; p < replay::kQueues; ++p) {
      if ((s.insns[i].wait_mask >> p & 1) &&
          s.tokens.count(replay::Shared::QueueAt(p), replay::Shared::QueueAt(q)) == 0) {
        from += fmt::format(" {}", spec::QueueName(static_cast<spec::Queue>(p)));
      }
    }
    blocked += fmt::format("; instruction #{} ({}) waits for a token from{}", i,
                           spec::OpcodeName(s.insns[i].opcode), from.empty() ? " nothing" : from);
  }
  return FailedPrecondition(
      fmt::format("the token protocol deadlocks ({} of {} instructions "
                  "retired){}",
                  s.retired, s.insns.size(), blocked));
}

}  // namespace

StatusOr<CostEstimate> EventReplay(const spec::NpuConfig& config,
                                   const std::vector<spec::Instruction>& insns,
                                   std::vector<spec::InsnRecord>* timeline,
                                   uint64_t instruction_offset) {
  using namespace replay;
  Shared s(config, insns, instruction_offset);
  CommandProcessor cp;
  Unit compute(static_cast<int>(spec::Queue::kCompute));
  Unit vector(static_cast<int>(spec::Queue::kVector));
  // The DMA engines in the channels' same-cycle priority (hw/spec/dma_dispatch.h).
  std::vector<DmaEngine> dma;
  for (const spec::Queue q : spec::kDmaEnginePriority) dma.emplace_back(config, q);
  while (s.retired < insns.size()) {
    // 1. Everything that can move at this instant, in the hardware's same-cycle order (compute,
    //    vector, DMA channels, fetch: hw/common/unit_timer.h), until nothing does; then the
    //    next delta (units woken by tokens given in this one, DMA retirements), if any.
    bool next_delta = true;
    while (next_delta) {
      for (bool moved = true; moved;) {
        moved = compute.Step(s);
        moved |= vector.Step(s);
        for (DmaEngine& engine : dma) moved |= engine.Step(s);
        moved |= cp.Step(s);
        for (DmaEngine& engine : dma) moved |= engine.StartKicked(s);
      }
      next_delta = false;
      for (const DmaEngine& engine : dma) {
        next_delta |= engine.RetiresNextDelta() || engine.DispatchesNextDelta(s);
      }
      next_delta |= s.NextDelta();
    }
    if (s.retired == insns.size()) break;
    // 2. The next instant anything waits for.
    uint64_t next = std::min({compute.Wake(), vector.Wake(), cp.Wake()});
    for (const DmaEngine& engine : dma) next = std::min(next, engine.Wake());
    if (next == kNever) return Deadlock(s);
    s.now = std::max(s.now, next);
  }
  if (timeline != nullptr) *timeline = std::move(s.timeline);
  return s.cost;
}

}  // namespace npu::compiler
