// SramBankTimer.
#include "hw/spec/sram_bank_timer.h"

#include <algorithm>

#include "hw/spec/sram_words.h"

namespace npu::spec {

SramBankTimer::SramBankTimer(const NpuConfig& c)
    : banks_(c.sram().banks()),
      width_(c.sram().bank_width_bytes()),
      free_(banks_, 0),
      words_(banks_, 0) {}

SramBankTimer::Booking SramBankTimer::Book(const SramAccess& a, uint64_t at) {
  std::fill(words_.begin(), words_.end(), 0);
  AddBankWords(a, width_, words_);
  Booking booking{at, 0};
  for (uint64_t b = 0; b < banks_; ++b) {
    if (words_[b] == 0) continue;
    booking.words += words_[b];
    free_[b] = std::max(at, free_[b]) + words_[b];
    booking.finish = std::max(booking.finish, free_[b]);
  }
  return booking;
}

}  // namespace npu::spec
