// DmaBurstPipeline.
#include "hw/spec/dma_burst_pipeline.h"

#include <algorithm>

namespace npu::spec {

void DmaBurstPipeline::Issue(uint64_t now, Memories& m) {
  for (; next_ < bursts_ && in_flight_.size() < outstanding_; ++next_) {
    const uint64_t at = load_ ? now : m.Sram(next_, now);  // a STORE reads SRAM first
    in_flight_.push_back({m.Dram(next_, at), next_});
  }
}

uint64_t DmaBurstPipeline::NextWake(uint64_t now) {
  if (!in_flight_.empty()) return in_flight_.front().ready;
  if (written_ > now) return written_;
  done_ = true;
  return now;
}

uint64_t DmaBurstPipeline::Start(uint64_t now, Memories& m) {
  written_ = now;
  Issue(now, m);
  return NextWake(now);
}

uint64_t DmaBurstPipeline::Advance(uint64_t now, Memories& m) {
  if (!in_flight_.empty()) {
    const InFlight oldest = in_flight_.front();
    in_flight_.pop_front();
    if (load_) written_ = std::max(written_, m.Sram(oldest.index, now));
    Issue(now, m);
  }
  return NextWake(now);
}

}  // namespace npu::spec
