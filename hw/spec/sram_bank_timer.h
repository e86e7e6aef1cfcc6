// The SRAM banks' timing rule, in cycles: one timer, two drivers. hw/sram times every access the
// SystemC model makes with it; the compiler's event replay (compiler/cost) books the same
// accesses on its own instance. Words of bank_width_bytes are interleaved round-robin over the
// banks (which words an access touches: sram_words.h); a bank moves one word per cycle; an access
// occupies each bank it touches for as many cycles as it has words there, from when it is made or
// that bank frees, whichever is later: first come, first served per bank.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/spec/npu_config.pb.h"
#include "hw/spec/unit_accesses.h"

namespace npu::spec {

class SramBankTimer {
 public:
  explicit SramBankTimer(const NpuConfig& config);

  struct Booking {
    uint64_t finish = 0;  // the cycle the access's last bank is done
    uint64_t words = 0;   // bank-width words moved, over all banks
  };
  // Books `access`, made at cycle `at`.
  Booking Book(const SramAccess& access, uint64_t at);
  uint64_t banks() const { return banks_; }

 private:
  uint64_t banks_, width_;
  std::vector<uint64_t> free_;   // per bank: the cycle it is free from
  std::vector<uint64_t> words_;  // scratch: the current access's words per bank
};

}  // namespace npu::spec
