// Deriving the reported figures from the counters.
#include "tools/run_workload/measurement.h"

namespace npu::tools {

Measurement Measure(const spec::NpuConfig& config, const fw::Counters& c,
                    uint64_t predicted_cycles) {
  namespace regs = spec::regs;
  Measurement m;
  m.cycles = c[regs::kCycles];
  m.predicted_cycles = predicted_cycles;
  m.macs = c[regs::kMacs];
  const double peak_macs = double(m.cycles) * config.mac().rows() * config.mac().cols();
  m.mac_utilisation = peak_macs > 0 ? double(m.macs) / peak_macs : 0;
  m.latency_us = double(m.cycles) / config.clock_mhz();
  m.dram_read = c[regs::kDramReadBytes];
  m.dram_written = c[regs::kDramWriteBytes];
  m.achieved_gbps =
      m.latency_us > 0 ? double(m.dram_read + m.dram_written) / m.latency_us / 1e3 : 0;
  m.peak_gbps = double(config.dram().bytes_per_cycle()) * config.clock_mhz() / 1e3;
  m.fetch_cycles = c[regs::kFetchCycles];
  m.dispatch_stall = c[regs::kDispatchStallCycles];
  m.instructions = c[regs::kInstructions];
  for (int q = 0; q < spec::kNumQueues; ++q) {
    auto get = [&](regs::QueueCounter k) { return c[regs::QueueCounterId(spec::Queue(q), k)]; };
    m.queues.push_back({std::string(spec::QueueName(spec::Queue(q))), get(regs::kBusyCycles),
                        get(regs::kWaitInputCycles), get(regs::kWaitBufferCycles),
                        get(regs::kBankConflictCycles), get(regs::kDramStallCycles),
                        get(regs::kQueueInstructions)});
  }
  return m;
}

}  // namespace npu::tools
