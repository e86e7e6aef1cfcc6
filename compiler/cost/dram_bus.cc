// The fluid DRAM bus.
#include "compiler/cost/dram_bus.h"

#include <algorithm>
#include <cmath>

namespace npu::compiler {

uint64_t DramBus::Transfer(uint64_t first_cycle, uint64_t bytes, double max_bytes_per_cycle) {
  if (bytes == 0) return first_cycle;
  const double rate = std::min(max_bytes_per_cycle, bytes_per_cycle_);
  double left = static_cast<double>(bytes);
  uint64_t cycle = first_cycle;
  for (;;) {
    // 1. The part of this bucket from `cycle` on, and what the bus and the channel allow there.
    const uint64_t bucket = cycle / kBucketCycles;
    const uint64_t bucket_end = (bucket + 1) * kBucketCycles;
    if (used_.size() <= bucket) used_.resize(std::max<size_t>(bucket + 1, 2 * used_.size()), 0.0);
    const double window = static_cast<double>(bucket_end - cycle);
    const double free = bytes_per_cycle_ * kBucketCycles - used_[bucket];
    const double take = std::max(0.0, std::min({free, rate * window, left}));
    used_[bucket] += take;
    left -= take;
    // 2. Done inside this bucket: the end is where the last byte went, at the channel's rate.
    if (left <= 1e-9) return cycle + static_cast<uint64_t>(std::ceil(take / rate));
    cycle = bucket_end;
  }
}

}  // namespace npu::compiler
