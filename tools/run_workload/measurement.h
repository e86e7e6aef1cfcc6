// What one run of a workload measured, in the units people read: derived from the counters the
// firmware read back, the config and the compiler's prediction. Every figure here is measured
// except `predicted_cycles`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firmware/driver.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::tools {

struct QueueFigures {
  std::string name;
  uint64_t busy = 0, wait_input = 0, wait_buffer = 0, bank_conflict = 0, dram_stall = 0;
  uint64_t instructions = 0;
};

struct Measurement {
  uint64_t cycles = 0;
  uint64_t predicted_cycles = 0;
  uint64_t macs = 0;
  double mac_utilisation = 0;  // macs / (cycles * rows * cols)
  double latency_us = 0;       // cycles at the configured clock
  uint64_t dram_read = 0, dram_written = 0;
  double achieved_gbps = 0;  // (read + written) / latency
  double peak_gbps = 0;      // dram.bytes_per_cycle at the clock
  uint64_t fetch_cycles = 0, dispatch_stall = 0, instructions = 0;
  std::vector<QueueFigures> queues;  // load, compute, vector, store
};

Measurement Measure(const spec::NpuConfig& config, const fw::Counters& counters,
                    uint64_t predicted_cycles);

}  // namespace npu::tools
