// Tokens given in one delta wake their waiters a delta later in the hardware's fixed order
// (compute, vector, load, store: hw/common/token_sync.h), whatever order they were given in, and
// the wait is counted by cause.
#include "hw/common/token_sync.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/hw/body_thread.h"

namespace npu::hw {
namespace {

using spec::Queue;

uint8_t Bit(Queue q) { return uint8_t(1u << static_cast<int>(q)); }

using Body = npu::testing::BodyThread;

struct Bench {
  Clock clock{1000};  // 1 ns cycles
  TokenSync tokens{"tokens", clock};
  std::vector<std::string> log;
  std::vector<TokenSync::Waited> waited;
  // `self` takes a token from `from` twice, logging each time it got one.
  std::function<void()> Taker(std::string name, Queue self, Queue from) {
    return [=, this] {
      for (int round = 0; round < 2; ++round) {
        waited.push_back(tokens.Acquire(self, Bit(from)));
        log.push_back(name + "@" + std::to_string(clock.Now()));
      }
    };
  }
};

TEST(TokenSync, QueuesWokenTogetherResumeInTheFixedOrder) {
  Bench b;
  Body store("store", b.Taker("store", Queue::kStore, Queue::kVector));
  Body vector("vector", b.Taker("vector", Queue::kVector, Queue::kLoad));
  Body compute("compute", b.Taker("compute", Queue::kCompute, Queue::kLoad));
  Body giver("giver", [&] {
    // At cycle 5 in the wake order, at cycle 10 in reverse (the kernel alone would resume them
    // last-notified first, so one of the two rounds would come out reversed).
    sc_core::wait(b.clock.Cycles(5));
    b.tokens.Release(Queue::kLoad, Bit(Queue::kCompute));
    b.tokens.Release(Queue::kLoad, Bit(Queue::kVector));
    b.tokens.Release(Queue::kVector, Bit(Queue::kStore));
    sc_core::wait(b.clock.Cycles(5));
    b.tokens.Release(Queue::kVector, Bit(Queue::kStore));
    b.tokens.Release(Queue::kLoad, Bit(Queue::kVector) | Bit(Queue::kCompute));
  });
  sc_core::sc_start();
  EXPECT_EQ(b.log, (std::vector<std::string>{"compute@5", "vector@5", "store@5", "compute@10",
                                             "vector@10", "store@10"}));
  // Every wait was for data (tokens from upstream queues): 5 cycles each.
  ASSERT_EQ(b.waited.size(), 6u);
  for (const TokenSync::Waited& w : b.waited) {
    EXPECT_EQ(w.input_cycles, 5u);
    EXPECT_EQ(w.buffer_cycles, 0u);
  }
}

TEST(TokenSync, ATokenAlreadyGivenIsTakenWithoutWaiting) {
  Bench b;
  Body giver("giver", [&] { b.tokens.Release(Queue::kCompute, Bit(Queue::kLoad)); });
  Body load("load", [&] {
    sc_core::wait(b.clock.Cycles(3));
    b.waited.push_back(b.tokens.Acquire(Queue::kLoad, Bit(Queue::kCompute)));
    b.log.push_back("load@" + std::to_string(b.clock.Now()));
  });
  sc_core::sc_start();
  EXPECT_EQ(b.log, (std::vector<std::string>{"load@3"}));
  EXPECT_EQ(b.waited.at(0).buffer_cycles, 0u);
}

}  // namespace
}  // namespace npu::hw
