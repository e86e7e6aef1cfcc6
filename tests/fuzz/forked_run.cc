// fork, run, copy coverage back, judge the child's end.
#include "tests/fuzz/forked_run.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "tests/fuzz/fuzz_target.h"

// The bounds of the coverage counters section, defined by the linker when the section exists
// (clang -fsanitize=fuzzer); null in other builds, where there is no coverage to carry.
extern "C" {
__attribute__((weak)) extern uint8_t __start___sancov_cntrs[];
__attribute__((weak)) extern uint8_t __stop___sancov_cntrs[];
}

namespace npu::fuzz {
namespace {

size_t CounterBytes() {
  if (__start___sancov_cntrs == nullptr || __stop___sancov_cntrs == nullptr) return 0;
  return static_cast<size_t>(__stop___sancov_cntrs - __start___sancov_cntrs);
}

// Shared with every child, mapped once.
uint8_t* SharedCounters() {
  static uint8_t* shared = [] {
    const size_t bytes = CounterBytes();
    if (bytes == 0) return static_cast<uint8_t*>(nullptr);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) Finding(std::string("mmap for coverage failed: ") + std::strerror(errno));
    return static_cast<uint8_t*>(p);
  }();
  return shared;
}

[[noreturn]] void ChildMain(const std::function<int()>& body, unsigned wall_seconds) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive a fuzzer that was stopped
  signal(SIGALRM, SIG_DFL);          // libFuzzer's -timeout handler is the parent's business
  alarm(wall_seconds);
  const int status = body();
  if (uint8_t* shared = SharedCounters()) {
    std::memcpy(shared, __start___sancov_cntrs, CounterBytes());
  }
  std::fflush(nullptr);
  _exit(status);  // no atexit handlers: they belong to the parent's state
}

void MergeChildCoverage() {
  const uint8_t* shared = SharedCounters();
  if (shared == nullptr) return;
  for (size_t i = 0; i < CounterBytes(); ++i) {
    __start___sancov_cntrs[i] = std::max(__start___sancov_cntrs[i], shared[i]);
  }
}

}  // namespace

void RunForked(const std::function<int()>& body, unsigned wall_seconds) {
  uint8_t* shared = SharedCounters();
  if (shared != nullptr) std::memset(shared, 0, CounterBytes());
  std::fflush(nullptr);  // or buffered output would be written twice
  const pid_t child = fork();
  if (child < 0) Finding(std::string("fork failed: ") + std::strerror(errno));
  if (child == 0) ChildMain(body, wall_seconds);
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) Finding(std::string("waitpid failed: ") + std::strerror(errno));
  }
  MergeChildCoverage();
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    Finding(sig == SIGALRM ? "the child ran past its wall-clock limit of " +
                                 std::to_string(wall_seconds) + " s"
                           : "the child was killed by signal " + std::to_string(sig) + " (" +
                                 strsignal(sig) + ")");
  }
  if (WEXITSTATUS(status) != 0) {
    Finding("the child exited with status " + std::to_string(WEXITSTATUS(status)));
  }
}

}  // namespace npu::fuzz
