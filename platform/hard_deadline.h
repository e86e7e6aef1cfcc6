// The watchdog's last resort (watchdog.h): a simulation stuck at one simulated instant (delta
// cycles without end) or inside one long firmware kernel never comes back to the slice loop that
// checks the time limit. A HardDeadline's host thread waits `grace_seconds` past the limit, then
// prints why on stderr and ends the process with exit status 2 (nothing has been written by then:
// tools write their files after the run). Destroying it first (the run came back) cancels it.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

namespace npu::platform {

inline constexpr double kTimeoutGraceSeconds = 10;

class HardDeadline {
 public:
  // timeout_seconds <= 0: no deadline, no thread.
  explicit HardDeadline(double timeout_seconds, double grace_seconds = kTimeoutGraceSeconds);
  ~HardDeadline();
  HardDeadline(const HardDeadline&) = delete;
  HardDeadline& operator=(const HardDeadline&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable cancelled_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace npu::platform
