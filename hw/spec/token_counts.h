// The token protocol's state, one rule for both drivers: queue `src` gives queue `dst` a token
// when an instruction of `src` with dst in its signal_mask retires; an instruction of `dst` starts
// only when it holds a token from every queue in its wait_mask, and takes them all as it starts.
// Each (src, dst) count has one consumer, the in-order queue dst, so taking the tokens one source
// at a time as they arrive (hw/common/token_sync) and all at once (compiler/cost's replay) start
// the instruction at the same instant. hw/common/token_sync adds the waiting; the replay adds its
// delta bookkeeping.
#pragma once

#include <array>
#include <cstdint>

#include "hw/spec/isa.h"

namespace npu::spec {

class TokenCounts {
 public:
  // The first queue in `wait_mask` that `self` holds no token from, or -1 if it holds them all.
  int Missing(Queue self, uint8_t wait_mask) const {
    for (int src = 0; src < kNumQueues; ++src) {
      if ((wait_mask >> src & 1) && count_[src][Index(self)] == 0) return src;
    }
    return -1;
  }
  bool Has(Queue self, uint8_t wait_mask) const { return Missing(self, wait_mask) < 0; }
  // Takes one token from every queue in `wait_mask`; the caller checked Has.
  void Take(Queue self, uint8_t wait_mask) {
    for (int src = 0; src < kNumQueues; ++src) count_[src][Index(self)] -= wait_mask >> src & 1;
  }
  // Gives one token to every queue in `signal_mask`.
  void Give(Queue self, uint8_t signal_mask) {
    for (int dst = 0; dst < kNumQueues; ++dst) count_[Index(self)][dst] += signal_mask >> dst & 1;
  }
  uint32_t count(Queue src, Queue dst) const { return count_[Index(src)][Index(dst)]; }
  void Reset() { count_ = {}; }

 private:
  static int Index(Queue q) { return static_cast<int>(q); }

  std::array<std::array<uint32_t, kNumQueues>, kNumQueues> count_{};  // [src][dst]
};

}  // namespace npu::spec
