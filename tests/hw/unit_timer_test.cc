// The NPU's one timing process: processes due on the same cycle resume in the stated priority
// (compute, vector, DMA channels, fetch), whatever order they went to sleep in; a wait also
// ended by an event voids its timed wake-up; a zero-cycle wait ends a delta later.
#include "hw/common/unit_timer.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/hw/body_thread.h"

namespace npu::hw {
namespace {

using Waker = UnitTimer::Waker;
using Body = npu::testing::BodyThread;

struct Bench {
  Clock clock{1000};  // 1 ns cycles
  UnitTimer timer{"timer", clock};
  std::vector<std::string> log;
  // `name` sleeps `delay` cycles, then waits `cycles` on the timer as `waker`, then logs.
  std::function<void()> Sleeper(std::string name, Waker waker, uint64_t delay, uint64_t cycles) {
    return [=, this] {
      sc_core::wait(clock.Cycles(delay));
      timer.Wait(waker, cycles);
      log.push_back(name + "@" + std::to_string(clock.Now()));
    };
  }
};

TEST(UnitTimer, ProcessesDueOnOneCycleResumeInPriorityOrder) {
  Bench b;
  // They go to sleep in reverse priority order, at different cycles, all due at cycle 10.
  Body fetch("fetch", b.Sleeper("fetch", Waker::kFetch, 0, 10));
  Body dma("dma", b.Sleeper("dma", Waker::kDmaChannels, 1, 9));
  Body vector("vector", b.Sleeper("vector", Waker::kVector, 2, 8));
  Body compute("compute", b.Sleeper("compute", Waker::kCompute, 3, 7));
  Body later("later", b.Sleeper("later_compute", Waker::kCompute, 20, 1));
  sc_core::sc_start();
  EXPECT_EQ(b.log, (std::vector<std::string>{"compute@10", "vector@10", "dma@10", "fetch@10",
                                             "later_compute@21"}));
}

TEST(UnitTimer, AnEventEndsTheWaitEarlyAndVoidsItsWakeUp) {
  Bench b;
  sc_core::sc_event kick;
  Body dma("dma", [&] {
    b.timer.Wait(Waker::kDmaChannels, 100, &kick);
    b.log.push_back("kicked@" + std::to_string(b.clock.Now()));
    b.timer.Wait(Waker::kDmaChannels, 200, &kick);
    b.log.push_back("due@" + std::to_string(b.clock.Now()));
    b.timer.Wait(Waker::kDmaChannels, 0);
    b.log.push_back("delta@" + std::to_string(b.clock.Now()));
  });
  Body kicker("kicker", [&] {
    sc_core::wait(b.clock.Cycles(5));
    kick.notify(sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  EXPECT_EQ(b.log, (std::vector<std::string>{"kicked@5", "due@205", "delta@205"}));
}

}  // namespace
}  // namespace npu::hw
