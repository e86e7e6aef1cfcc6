// What the control core gives the firmware: 32-bit register accesses and block transfers on the
// system bus, the NPU's interrupt line, and time for its own computation. The firmware touches
// the NPU through nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "hw/spec/cpu_model.h"

namespace npu::fw {

class Bus {
 public:
  virtual ~Bus() = default;
  // Each returns false on a bus error.
  virtual bool Read32(uint64_t addr, uint32_t& value) = 0;
  virtual bool Write32(uint64_t addr, uint32_t value) = 0;
  virtual bool ReadBlock(uint64_t addr, uint8_t* data, size_t bytes) = 0;
  virtual bool WriteBlock(uint64_t addr, const uint8_t* data, size_t bytes) = 0;
  // Sleeps until the interrupt line is raised (returns at once if it already is).
  virtual void WaitForInterrupt() = 0;
  // The core runs a CPU kernel that does `work` (one op): the time the control core's cost
  // model gives it passes (hw/spec/cpu_model.h).
  virtual void Compute(std::span<const spec::CpuWorkItem> work) = 0;
};

}  // namespace npu::fw
