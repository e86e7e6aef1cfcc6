// A fw::Bus over a plain byte array standing for DRAM from DRAM_BASE, for running firmware code
// (its CPU kernels) without the platform: block transfers copy, nothing takes time, and there
// are no NPU registers.
#pragma once

#include <cstring>
#include <vector>

#include "firmware/bus.h"
#include "firmware/cpu/cpu_op.h"
#include "hw/spec/memory_map.h"

namespace npu::testing {

class MemoryBus : public fw::Bus {
 public:
  explicit MemoryBus(std::vector<uint8_t>& dram) : dram_(dram) {}
  bool Read32(uint64_t, uint32_t&) override { return false; }
  bool Write32(uint64_t, uint32_t) override { return false; }
  bool ReadBlock(uint64_t addr, uint8_t* data, size_t bytes) override {
    if (!Inside(addr, bytes)) return false;
    std::memcpy(data, dram_.data() + (addr - spec::kDramBase), bytes);
    return true;
  }
  bool WriteBlock(uint64_t addr, const uint8_t* data, size_t bytes) override {
    if (!Inside(addr, bytes)) return false;
    std::memcpy(dram_.data() + (addr - spec::kDramBase), data, bytes);
    return true;
  }
  void WaitForInterrupt() override {}
  void Compute(std::span<const spec::CpuWorkItem>) override {}

 private:
  bool Inside(uint64_t addr, size_t bytes) const {
    return addr >= spec::kDramBase && addr - spec::kDramBase <= dram_.size() &&
           bytes <= dram_.size() - (addr - spec::kDramBase);
  }
  std::vector<uint8_t>& dram_;
};

// The firmware's CPU kernels as a functional executor's CPU op runner, with the checks the
// firmware applies when it loads a binary.
inline Status RunCpuOpInMemory(const spec::CpuOp& op, std::vector<uint8_t>& dram) {
  NPU_TRY(fw::CheckCpuOp(op, dram.size()));
  MemoryBus bus(dram);
  return fw::RunCpuOp(bus, op);
}

}  // namespace npu::testing
