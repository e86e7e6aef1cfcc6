// The bytes and bank words of SRAM accesses.
#include "hw/spec/sram_words.h"

#include <cstring>

namespace npu::spec {
namespace {

// The words of run i: its first word and how many, when no word of its span is skipped.
struct WordRange {
  uint64_t first, count;
};
WordRange SpannedWords(uint64_t begin, uint64_t span, uint64_t width) {
  const uint64_t first = begin / width;
  return {first, (begin + span - 1) / width - first + 1};
}

}  // namespace

uint64_t RunSpan(uint64_t run_bytes, uint64_t elem_stride) {
  return run_bytes == 0 ? 0 : (run_bytes - 1) * ElementStep(elem_stride) + 1;
}

uint64_t SramAccessSpan(const SramAccess& a) {
  if (a.run == 0 || a.count == 0) return 0;
  return (a.count - 1) * a.stride + RunSpan(a.run, a.elem_stride);
}

void AddBankWords(const SramAccess& a, uint64_t width, std::span<uint64_t> words) {
  const uint64_t banks = words.size(), step = ElementStep(a.elem_stride);
  if (a.run == 0) return;
  for (uint64_t i = 0; i < a.count; ++i) {
    const uint64_t begin = a.addr + i * a.stride;
    if (step > width) {  // consecutive bytes more than a word apart: a word each
      for (uint64_t k = 0; k < a.run; ++k) ++words[(begin + k * step) / width % banks];
      continue;
    }
    // Bytes at most a word apart skip no word between the first and the last.
    const WordRange w = SpannedWords(begin, RunSpan(a.run, step), width);
    if (w.count >= banks) {
      for (uint64_t b = 0; b < banks; ++b) words[b] += w.count / banks;
    }
    for (uint64_t r = 0; r < w.count % banks; ++r) ++words[(w.first + r) % banks];
  }
}

uint64_t SramWords(const SramAccess& a, uint64_t width) {
  const uint64_t step = ElementStep(a.elem_stride);
  if (a.run == 0) return 0;
  if (step > width) return a.count * a.run;
  uint64_t words = 0;
  for (uint64_t i = 0; i < a.count; ++i) {
    words += SpannedWords(a.addr + i * a.stride, RunSpan(a.run, step), width).count;
  }
  return words;
}

void MoveSramBytes(const SramAccess& a, uint8_t* sram, uint8_t* data) {
  const uint64_t step = ElementStep(a.elem_stride);
  for (uint64_t i = 0; i < a.count; ++i) {
    uint8_t* cell = sram + a.addr + i * a.stride;
    uint8_t* buf = data + i * a.run;
    if (step == 1) {
      std::memcpy(a.write ? cell : buf, a.write ? buf : cell, a.run);
      continue;
    }
    for (uint64_t k = 0; k < a.run; ++k) {
      if (a.write) {
        cell[k * step] = buf[k];
      } else {
        buf[k] = cell[k * step];
      }
    }
  }
}

}  // namespace npu::spec
