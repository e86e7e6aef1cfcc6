// The watchdog (platform/watchdog.h): 4000 LOADs, each of a few runs of 32 KiB (millions of
// cycles; with 16 runs each, seconds of host time), end at the cycle budget or the host-time limit
// with an error saying where the firmware and each queue stand.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "hw/spec/config.h"
#include "platform/hard_deadline.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"

namespace npu {
namespace {

constexpr uint32_t kRunBytes = 32 * 1024, kLoads = 4000;

std::string LongRun(const spec::NpuConfig& config, uint32_t runs_per_load) {
  spec::DmaArgs d;
  d.dram_offset = 1 << 20;
  d.run_bytes = kRunBytes;
  d.n1 = runs_per_load;
  d.dram_stride1 = d.sram_stride1 = kRunBytes;
  testing::ProgramBuilder program(config);
  program.Constant(1 << 20, std::vector<uint8_t>(runs_per_load * kRunBytes, 1));
  for (uint32_t i = 0; i < kLoads; ++i) program.Add({spec::Opcode::kLoad, 0, 0, d});
  return program.Sealed();
}

Status RunWith(uint32_t runs_per_load, uint64_t max_cycles, double timeout_seconds) {
  const spec::NpuConfig config = spec::DefaultConfig();
  platform::RunOptions options;
  options.max_cycles = max_cycles;
  options.timeout_seconds = timeout_seconds;
  StatusOr<platform::RunResult> r =
      platform::RunBinary(config, LongRun(config, runs_per_load), {}, options);
  EXPECT_FALSE(r.ok());
  return r.status();
}

TEST(Watchdog, CycleBudgetEndsARunawayRun) {
  const Status s = RunWith(2, 200'000, 0);
  EXPECT_EQ(s.kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(s.message().find("within its budget of 200000 cycles while the firmware was running "
                             "step 0 of 1"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("of 4000 instructions dispatched"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("; load queue: "), std::string::npos) << s.message();
}

TEST(Watchdog, TimeLimitEndsARunawayRun) {
  const Status s = RunWith(16, 0, 0.2);  // seconds of host time unwatched
  EXPECT_NE(s.message().find("within its time limit of 0.2 s (at cycle"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("compute queue: 0 retired, 0 queued"), std::string::npos)
      << s.message();
}

// The last resort, for a simulation that never comes back to the slice loop: the process ends
// with exit status 2 and the reason, `grace` after the limit.
TEST(HardDeadline, EndsAProcessStuckPastItsLimit) {
  EXPECT_EXIT(
      {
        platform::HardDeadline deadline(0.05, /*grace_seconds=*/0.05);
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));  // stuck
      },
      ::testing::ExitedWithCode(2), "passed its time limit of 0.05 s and did not stop within");
}

TEST(HardDeadline, IsCancelledWhenTheRunComesBackInTime) {
  EXPECT_EXIT(
      {
        { platform::HardDeadline deadline(0.05, /*grace_seconds=*/0.05); }  // came back at once
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  platform::HardDeadline none(0);  // no limit: no thread
}

}  // namespace
}  // namespace npu
