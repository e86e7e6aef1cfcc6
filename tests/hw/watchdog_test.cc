// The watchdog (platform/watchdog.h): a run of 4000 LOADs of 64 KiB, millions of cycles, ends at
// the cycle budget or the host-time limit with an error saying where the firmware and each queue
// stand.
#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"

namespace npu {
namespace {

constexpr uint32_t kRunBytes = 32 * 1024, kLoads = 4000;

std::string LongRun(const spec::NpuConfig& config) {
  spec::DmaArgs d;  // two runs of 32 KiB
  d.dram_offset = 1 << 20;
  d.run_bytes = kRunBytes;
  d.n1 = 2;
  d.dram_stride1 = d.sram_stride1 = kRunBytes;
  testing::ProgramBuilder program(config);
  program.Constant(1 << 20, std::vector<uint8_t>(2 * kRunBytes, 1));
  for (uint32_t i = 0; i < kLoads; ++i) program.Add({spec::Opcode::kLoad, 0, 0, d});
  return program.Sealed();
}

Status RunWith(const platform::WatchdogLimits& limits) {
  const spec::NpuConfig config = spec::DefaultConfig();
  platform::RunOptions options;
  options.watchdog = limits;
  StatusOr<platform::RunResult> r = platform::RunBinary(config, LongRun(config), {}, options);
  EXPECT_FALSE(r.ok());
  return r.status();
}

TEST(Watchdog, CycleBudgetEndsARunawayRun) {
  const Status s = RunWith({.max_cycles = 200'000});
  EXPECT_EQ(s.kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(s.message().find("the cycle budget of 200000 cycles ran out while the firmware was "
                             "running step 0 of 1"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("of 4000 instructions dispatched"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("; load queue: "), std::string::npos) << s.message();
}

TEST(Watchdog, TimeLimitEndsARunawayRun) {
  const Status s = RunWith({.timeout_seconds = 0.5});
  EXPECT_NE(s.message().find("the time limit of 0.5 s passed at cycle"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("compute queue: 0 retired, 0 queued"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace npu
