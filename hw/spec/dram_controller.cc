// The DRAM controller: the IDEAL bus, or bursts mapped onto a JEDEC device's channels.
#include "hw/spec/dram_controller.h"

#include <algorithm>

#include "hw/spec/timing_model.h"

namespace npu::spec {

DramController::DramController(const NpuConfig& config)
    : config_(config),
      ideal_(IsIdealDram(config)),
      latency_cycles_(config.dram().latency_cycles()),
      device_(ResolveDramDevice(config)),
      npu_period_fs_(NpuClockPeriodPs(config.clock_mhz()) * 1000) {
  if (ideal_) return;
  channels_.reserve(device_.channels);
  for (uint32_t c = 0; c < device_.channels; ++c) channels_.emplace_back(device_, c, sink_);
}

int64_t DramController::ToTicks(uint64_t cycle) const {
  return static_cast<int64_t>(CeilDiv(cycle * npu_period_fs_, device_.tck_fs));
}

uint64_t DramController::ToCycles(int64_t tick) const {
  return CeilDiv(static_cast<uint64_t>(tick) * device_.tck_fs, npu_period_fs_);
}

uint64_t DramController::Ideal(uint64_t cycle, uint64_t bytes) {
  const uint64_t ready = cycle + latency_cycles_;
  const uint64_t start = std::max(ready, bus_free_);
  sink_.stats.queued_cycles += start - ready;
  bus_free_ = start + DramDataCycles(config_, bytes);
  return bus_free_;
}

DramController::Location DramController::Map(uint64_t burst_index) const {
  const DramDevice& d = device_;
  uint64_t rest = burst_index;
  Location at{};
  at.channel = static_cast<uint32_t>(rest % d.channels);
  rest /= d.channels;
  at.group = static_cast<uint32_t>(rest % d.bank_groups);
  rest /= d.bank_groups;
  rest /= d.page_bytes / d.BurstBytes();  // the column
  at.bank = static_cast<uint32_t>(rest % d.BanksPerGroup());
  at.row = rest / d.BanksPerGroup();
  return at;
}

uint64_t DramController::Access(uint64_t cycle, uint64_t addr, uint64_t bytes, bool write) {
  ++sink_.stats.requests;
  if (ideal_) return Ideal(cycle, bytes);
  const int64_t arrival = ToTicks(cycle + latency_cycles_);
  const uint64_t burst = device_.BurstBytes();
  int64_t end = arrival;
  for (uint64_t block = addr / burst; block * burst < addr + bytes; ++block) {
    const Location at = Map(block);
    end = std::max(end, channels_[at.channel].Burst(arrival, at.group, at.bank, at.row, write));
  }
  return ToCycles(end);
}

}  // namespace npu::spec
