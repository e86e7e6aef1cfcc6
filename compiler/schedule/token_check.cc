// The token protocol checker.
#include "compiler/schedule/token_check.h"

#include <array>
#include <deque>

#include <fmt/format.h>

namespace npu::compiler {
namespace {

constexpr int kQueues = spec::kNumQueues;

std::string Name(const std::vector<spec::Instruction>& insns, size_t i) {
  return fmt::format("#{} {}", i, spec::OpcodeName(insns[i].opcode));
}
std::string_view QName(int q) { return spec::QueueName(static_cast<spec::Queue>(q)); }
int Q(const spec::Instruction& insn) { return static_cast<int>(insn.queue()); }

Status CheckMasks(const std::vector<spec::Instruction>& insns) {
  for (size_t i = 0; i < insns.size(); ++i) {
    const uint8_t own = uint8_t(1u << Q(insns[i]));
    if ((insns[i].wait_mask | insns[i].signal_mask) & (0xF0 | own)) {
      return FailedPrecondition(
          fmt::format("{}: token mask names its own queue or a queue "
                      "beyond the four",
                      Name(insns, i)));
    }
  }
  return Status::Ok();
}

// Step 2 and 3: run the queues until stuck.
Status Execute(const std::vector<spec::Instruction>& insns) {
  std::array<std::deque<size_t>, kQueues> queues;
  for (size_t i = 0; i < insns.size(); ++i) queues[Q(insns[i])].push_back(i);
  std::array<std::array<int64_t, kQueues>, kQueues> tokens{};  // [src][dst]
  for (bool progress = true; progress;) {
    progress = false;
    for (int q = 0; q < kQueues; ++q) {
      while (!queues[q].empty()) {
        const spec::Instruction& insn = insns[queues[q].front()];
        bool ready = true;
        for (int p = 0; p < kQueues; ++p) ready &= !(insn.wait_mask >> p & 1) || tokens[p][q] > 0;
        if (!ready) break;
        for (int p = 0; p < kQueues; ++p) tokens[p][q] -= insn.wait_mask >> p & 1;
        for (int p = 0; p < kQueues; ++p) tokens[q][p] += insn.signal_mask >> p & 1;
        queues[q].pop_front();
        progress = true;
      }
    }
  }
  std::string blocked;
  for (int q = 0; q < kQueues; ++q) {
    if (queues[q].empty()) continue;
    const size_t i = queues[q].front();
    std::string from;
    for (int p = 0; p < kQueues; ++p) {
      if ((insns[i].wait_mask >> p & 1) && tokens[p][q] == 0) from += fmt::format(" {}", QName(p));
    }
    blocked += fmt::format("; {} waits for a token from{}", Name(insns, i), from);
  }
  if (!blocked.empty()) return FailedPrecondition("deadlock" + blocked);
  return Status::Ok();
}

// Steps 3 and 4: pair the k-th signal with the k-th wait of every queue pair.
Status CheckPairs(const std::vector<spec::Instruction>& insns) {
  std::array<std::array<std::deque<size_t>, kQueues>, kQueues> signals;  // [src][dst]
  for (size_t i = 0; i < insns.size(); ++i) {
    const int q = Q(insns[i]);
    for (int p = 0; p < kQueues; ++p) {
      if (!(insns[i].wait_mask >> p & 1)) continue;
      if (signals[p][q].empty()) {
        return FailedPrecondition(fmt::format(
            "{} waits for a token from {} that no earlier instruction gives (a dependency "
            "pointing forward)",
            Name(insns, i), QName(p)));
      }
      signals[p][q].pop_front();
    }
    for (int p = 0; p < kQueues; ++p) {
      if (insns[i].signal_mask >> p & 1) signals[q][p].push_back(i);
    }
  }
  for (int p = 0; p < kQueues; ++p) {
    for (int q = 0; q < kQueues; ++q) {
      if (signals[p][q].empty()) continue;
      return FailedPrecondition(fmt::format(
          "unbalanced tokens: {} signals {} but no later instruction takes the token ({} "
          "unconsumed on {} -> {})",
          Name(insns, signals[p][q].front()), QName(q), signals[p][q].size(), QName(p), QName(q)));
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckTokenProtocol(const std::vector<spec::Instruction>& insns) {
  NPU_TRY(CheckMasks(insns));
  NPU_TRY(Execute(insns));
  return CheckPairs(insns);
}

}  // namespace npu::compiler
