// The SRAM's banks as hw/sram times them: per bank a busy-until time; an access books, on each
// bank, one cycle per bank-width word it touches there (hw/spec/sram_words.h), from when it is
// made or the bank frees. What a unit instruction accesses is hw/spec/unit_accesses.h's.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/spec/npu_config.pb.h"
#include "hw/spec/unit_accesses.h"

namespace npu::compiler {

class SramBanks {
 public:
  explicit SramBanks(const spec::NpuConfig& config);
  // Books `access` from cycle `at`; returns the cycle its last bank is done.
  uint64_t Book(const spec::SramAccess& access, uint64_t at);

 private:
  uint64_t banks_, width_;
  std::vector<uint64_t> free_, words_;
};

}  // namespace npu::compiler
