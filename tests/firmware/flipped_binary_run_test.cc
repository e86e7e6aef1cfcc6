// Flipped binaries the loader accepts (tests/firmware/byte_flip.h) run on the platform without a
// crash or a hang: each ends with outputs or with an error, within the watchdog's cycle budget.
// SystemC elaborates once per process, so every run is a forked child; the parent waits for it
// with a host-time limit of its own.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "firmware/program_check.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "platform/run.h"
#include "tests/firmware/byte_flip.h"
#include "tests/firmware/loader_test_programs.h"

namespace npu {
namespace {

constexpr int kRuns = 40;
constexpr int kChildLimitSeconds = 120;  // well above the watchdog's, so only a real hang trips it

// Runs `binary` in a child process; the child's exit status, or -1 if it died of a signal, or -2
// if it outlived kChildLimitSeconds (then it is killed).
int RunInChild(const spec::NpuConfig& config, const spec::Program& program,
               const std::string& binary) {
  const pid_t child = fork();
  if (child == 0) {
    std::vector<std::vector<int8_t>> inputs;
    for (const spec::TensorDesc& t : program.inputs()) inputs.emplace_back(t.size_bytes(), 1);
    platform::RunOptions options;
    options.max_cycles = 20'000'000;
    options.timeout_seconds = 30;
    const StatusOr<platform::RunResult> r = platform::RunBinary(config, binary, inputs, options);
    _exit(r.ok() ? 0 : 2);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kChildLimitSeconds);
  int status = 0;
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return -2;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(FlippedBinaries, AcceptedOnesRunToAnEndOnThePlatform) {
  const spec::NpuConfig config = spec::DefaultConfig();
  const spec::Program valid = testing::LayerWithCpuOp(config);
  const testing::ByteFlipper flipper(valid);
  std::mt19937 rng(99);
  int ran = 0, finished = 0;
  for (int attempts = 0; ran < kRuns && attempts < 100 * kRuns; ++attempts) {
    const std::string binary = flipper.Next(rng);
    const StatusOr<spec::Program> p = spec::OpenProgram(binary);
    if (!p.ok() || !fw::CheckProgram(*p, fw::LimitsOf(config)).ok()) continue;
    ++ran;
    const int code = RunInChild(config, *p, binary);
    EXPECT_TRUE(code == 0 || code == 2) << "flip " << attempts << ": child ended with " << code;
    finished += code == 0;
  }
  EXPECT_EQ(ran, kRuns);
  EXPECT_GT(finished, 0);  // most flips change values, and those runs finish
}

}  // namespace
}  // namespace npu
