// SRAM bank timing.
#include "compiler/cost/sram_banks.h"

#include <algorithm>

#include "hw/spec/sram_words.h"

namespace npu::compiler {

SramBanks::SramBanks(const spec::NpuConfig& c)
    : banks_(c.sram().banks()),
      width_(c.sram().bank_width_bytes()),
      free_(banks_, 0),
      words_(banks_, 0) {}

uint64_t SramBanks::Book(const spec::SramAccess& a, uint64_t at) {
  std::fill(words_.begin(), words_.end(), 0);
  spec::AddBankWords(a, width_, words_);
  uint64_t finish = at;
  for (uint64_t b = 0; b < banks_; ++b) {
    if (words_[b] == 0) continue;
    free_[b] = std::max(at, free_[b]) + words_[b];
    finish = std::max(finish, free_[b]);
  }
  return finish;
}

}  // namespace npu::compiler
