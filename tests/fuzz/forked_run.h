// Running a fuzz input in a child process, for code that runs once per process: SystemC
// elaborates once, so each platform run needs a fresh process. libFuzzer's -fork mode does not
// help (its workers run many inputs each), so the target forks per input instead.
//
// Coverage crosses back: in a libFuzzer build the child copies its inline 8-bit coverage
// counters (the __sancov_cntrs section) into shared memory, and the parent merges them into its
// own before returning, so libFuzzer sees what the input covered as if it had run in process.
// (Comparison tracing, -use_value_profile, stays in the child and is lost.)
//
// A child that is killed by a signal (a crash, a sanitizer's abort, the wall-clock limit) or
// exits non-zero is a Finding() in the parent, where libFuzzer records the input.
#pragma once

#include <functional>

namespace npu::fuzz {

// Runs `body` in a child; the child gets `wall_seconds` of real time before SIGALRM ends it.
// `body` returns the child's exit status (0: nothing found).
void RunForked(const std::function<int()>& body, unsigned wall_seconds);

}  // namespace npu::fuzz
