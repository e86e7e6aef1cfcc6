// A fluid model of the DRAM data bus that every DMA channel shares: time is cut into buckets,
// each able to carry bytes_per_cycle x kBucketCycles bytes. A transfer takes the earliest free
// capacity from its first-data cycle on, never faster than its own channel could go alone.
// Buckets are indexed by time, not by the order transfers are booked, so a transfer booked later
// (the cost model replays in stream order) can still use capacity before one booked earlier.
#pragma once

#include <cstdint>
#include <vector>

namespace npu::compiler {

class DramBus {
 public:
  explicit DramBus(uint32_t bytes_per_cycle) : bytes_per_cycle_(bytes_per_cycle) {}

  // Books `bytes` starting at `first_cycle` at up to `max_bytes_per_cycle`; returns the cycle
  // after the last byte crosses the bus.
  uint64_t Transfer(uint64_t first_cycle, uint64_t bytes, double max_bytes_per_cycle);

  static constexpr uint64_t kBucketCycles = 16;

 private:
  double bytes_per_cycle_;
  std::vector<double> used_;  // bytes booked per bucket
};

}  // namespace npu::compiler
