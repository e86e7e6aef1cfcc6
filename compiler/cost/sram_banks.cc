// SRAM bank timing.
#include "compiler/cost/sram_banks.h"

#include <algorithm>

#include "hw/spec/semantics.h"

namespace npu::compiler {
namespace {

SramAccess Pixels(uint64_t addr, uint64_t pixels, uint64_t channels, uint64_t stride) {
  if (pixels <= 1 || stride == channels) return {addr, pixels * channels, 1, 0};
  return {addr, channels, pixels, stride};
}

}  // namespace

SramBanks::SramBanks(const spec::NpuConfig& c)
    : banks_(c.sram().banks()),
      width_(c.sram().bank_width_bytes()),
      free_(banks_, 0),
      words_(banks_, 0) {}

uint64_t SramBanks::Book(const SramAccess& a, uint64_t at) {
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

std::vector<SramAccess> UnitSramAccesses(const spec::Instruction& insn) {
  if (const auto* c = std::get_if<spec::ConvArgs>(&insn.args)) {
    return {{c->wt_addr, spec::ConvWeightBytes(*c)}, {c->in_addr, spec::ConvInputBytes(*c)}};
  }
  if (const auto* a = std::get_if<spec::ActArgs>(&insn.args)) {
    return {{a->param_addr, spec::ActParamBytes(*a)},
            Pixels(a->out_addr, a->pixels, a->channels, a->out_pixel_stride)};
  }
  if (const auto* p = std::get_if<spec::PoolArgs>(&insn.args)) {
    return {{p->in_addr, spec::PoolInputBytes(*p)},
            Pixels(p->out_addr, uint64_t{p->out_h} * p->out_w, p->channels, p->out_pixel_stride)};
  }
  if (const auto* d = std::get_if<spec::AddArgs>(&insn.args)) {
    return {{d->a_addr, d->count}, {d->b_addr, d->count}, {d->out_addr, d->count}};
  }
  return {};
}

}  // namespace npu::compiler
