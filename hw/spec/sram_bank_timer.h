// The SRAM banks' timing rule, in cycles: one timer, two drivers. hw/sram times every access the
// SystemC model makes with it; the compiler's event replay (compiler/cost) books the same
// accesses on its own instance. Words of bank_width_bytes are interleaved round-robin over the
// banks (which words an access touches: sram_words.h); a bank moves one word per cycle; an access
// occupies each bank it touches for as many cycles as it has words there, from when it is made or
// that bank frees, whichever is later: first come, first served per bank.
//
// The MAC array's operand stream (operand_stream.h) is the exception: it has its banks first.
// Booked once per CONV (BookStream), it starts when every bank it uses is free and spreads its
// words evenly over the CONV's cycles; its words go round-robin over the banks from the bank
// holding the CONV's input. Other accesses then take each bank's cycles the stream leaves:
// while a bank streams W words over D cycles, the first t cycles of the stream hold
// floor(W * t / D) of them.
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
  // Books a CONV's operand stream of `words` bank words, its input at SRAM `addr`, asked for at
  // `at` and lasting `cycles` once started (ConvComputeCycles: at least ceil(words / banks)).
  // Returns the cycle it starts. A stream begins after the previous one ended.
  uint64_t BookStream(uint64_t addr, uint64_t words, uint64_t at, uint64_t cycles);
  uint64_t banks() const { return banks_; }

 private:
  struct Stream {
    uint64_t start = 0, cycles = 0, words = 0;
    // Its words in [start, t).
    uint64_t HeldBefore(uint64_t t) const;
  };
  // When `words` cycles of `bank` not held by its stream have passed from `from`.
  uint64_t FinishAfter(uint64_t bank, uint64_t from, uint64_t words) const;

  uint64_t banks_, width_;
  std::vector<uint64_t> free_;   // per bank: the cycle it is free from
  std::vector<Stream> streams_;  // per bank: the latest operand stream
  std::vector<uint64_t> words_;  // scratch: the current access's words per bank
};

}  // namespace npu::spec
