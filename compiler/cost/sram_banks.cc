// SRAM bank timing.
#include "compiler/cost/sram_banks.h"

#include <algorithm>

namespace npu::compiler {

SramBanks::SramBanks(const spec::NpuConfig& c)
    : banks_(c.sram().banks()),
      width_(c.sram().bank_width_bytes()),
      free_(banks_, 0),
      words_(banks_, 0) {}

uint64_t SramBanks::Book(const spec::SramAccess& a, uint64_t at) {
  std::fill(words_.begin(), words_.end(), 0);
  for (uint64_t i = 0; i < a.count && a.run > 0; ++i) {
    const uint64_t begin = a.addr + i * a.stride, first = begin / width_;
    const uint64_t n = (begin + a.run - 1) / width_ - first + 1;
    if (n >= banks_) {
      for (uint64_t b = 0; b < banks_; ++b) words_[b] += n / banks_;
    }
    for (uint64_t r = 0; r < n % banks_; ++r) ++words_[(first + r) % banks_];
  }
  uint64_t finish = at;
  for (uint64_t b = 0; b < banks_; ++b) {
    if (words_[b] == 0) continue;
    free_[b] = std::max(at, free_[b]) + words_[b];
    finish = std::max(finish, free_[b]);
  }
  return finish;
}

}  // namespace npu::compiler
