// The SRAM's banks as hw/sram times them: per bank a busy-until time; an access books, on each
// bank, one cycle per bank-width word it touches there, from when it is made or the bank frees.
// Also the accesses each unit instruction makes, in the order the unit makes them.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler {

// `count` runs of `run` bytes, `stride` apart.
struct SramAccess {
  uint64_t addr = 0, run = 0, count = 1, stride = 0;
};

class SramBanks {
 public:
  explicit SramBanks(const spec::NpuConfig& config);
  // Books `access` from cycle `at`; returns the cycle its last bank is done.
  uint64_t Book(const SramAccess& access, uint64_t at);

 private:
  uint64_t banks_, width_;
  std::vector<uint64_t> free_, words_;
};

// CONV: weights then input; ACT: parameters then output; POOL: input then output; ADD: a, b,
// output. Empty for LOAD/STORE (their bursts access the SRAM one by one).
std::vector<SramAccess> UnitSramAccesses(const spec::Instruction& insn);

}  // namespace npu::compiler
