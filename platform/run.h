// Running a compiled binary on the platform: elaborate the system, let the firmware load the
// binary, write the inputs, run its steps (NPU runs and CPU ops) and read back, and collect what
// the hardware measured on one timeline. SystemC elaborates once per process, so RunBinary() can
// be called once per process.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "firmware/driver.h"
#include "hw/npu/npu.h"
#include "hw/spec/dram_channel.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"
#include "platform/watchdog.h"

namespace npu::platform {

// Every time below is in NPU cycles from the start of the inference: the first step's start
// (the first doorbell, or the first CPU op's first read).
struct RunResult {
  std::vector<std::vector<int8_t>> outputs;  // one per output tensor of the binary
  fw::Counters counters{};                   // the NPU's, summed over its runs
  std::vector<fw::StepTiming> steps;         // one per program step, as the firmware timed it
  uint64_t cycles = 0;                       // the inference: the last step's end
  std::vector<hw::TraceEvent> trace;         // when options.trace: the NPU's units
  std::vector<hw::InsnRecord> records;       // per program instruction: when it ran, its waits
  double wall_seconds = 0;                   // host time spent simulating
  spec::DramStats dram;                      // the DRAM controller's counts, whole simulation
};

struct RunOptions {
  using ProgressFn = std::function<void(uint64_t retired, uint64_t total, uint64_t cycles)>;
  hw::NpuOptions npu;
  // Called every `progress_interval_cycles` of simulated time while instructions retire.
  ProgressFn progress;
  uint64_t progress_interval_cycles = 250'000;
  // The watchdog (platform/watchdog.h): a run still going after `max_cycles` NPU cycles from
  // elaboration, or after `timeout_seconds` of host time, ends with ResourceExhausted saying
  // where the firmware and each queue stand. 0: no limit.
  uint64_t max_cycles = 0;
  double timeout_seconds = 0;
  // What the firmware checks before it runs the binary; kLayoutOnly only for tests of the
  // hardware's own fault detection (firmware/driver.h).
  fw::LoadChecks load_checks = fw::LoadChecks::kAll;
};

StatusOr<RunResult> RunBinary(const spec::NpuConfig& config, std::string_view binary,
                              const std::vector<std::vector<int8_t>>& inputs,
                              const RunOptions& options);

}  // namespace npu::platform
