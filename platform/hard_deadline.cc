// HardDeadline's thread.
#include "platform/hard_deadline.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace npu::platform {

HardDeadline::HardDeadline(double timeout_seconds, double grace_seconds) {
  if (timeout_seconds <= 0) return;
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration<double>(timeout_seconds + grace_seconds);
  thread_ = std::thread([this, until, timeout_seconds, grace_seconds] {
    std::unique_lock<std::mutex> lock(mutex_);
    if (cancelled_.wait_until(lock, until, [this] { return done_; })) return;
    std::fprintf(stderr,
                 "error: the simulation passed its time limit of %g s and did not stop within "
                 "%g s more: it is stuck at one simulated instant or inside a firmware kernel\n",
                 timeout_seconds, grace_seconds);
    _exit(2);
  });
}

HardDeadline::~HardDeadline() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  cancelled_.notify_one();
  thread_.join();
}

}  // namespace npu::platform
