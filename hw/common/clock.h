// Cycles <-> SystemC time: the only converter. Every wait in the model is a whole number of
// cycles, so ToCycles() is exact. The period is rounded to whole picoseconds.
#pragma once

#include <cstdint>
#include <systemc>

#include "hw/spec/timing_model.h"

namespace npu::hw {

class Clock {
 public:
  explicit Clock(uint32_t mhz)
      : period_(static_cast<double>(spec::NpuClockPeriodPs(mhz)), sc_core::SC_PS) {}
  sc_core::sc_time Cycles(uint64_t n) const { return period_ * static_cast<double>(n); }
  uint64_t ToCycles(const sc_core::sc_time& t) const { return t.value() / period_.value(); }
  uint64_t Now() const { return ToCycles(sc_core::sc_time_stamp()); }
  const sc_core::sc_time& period() const { return period_; }

 private:
  sc_core::sc_time period_;
};

}  // namespace npu::hw
