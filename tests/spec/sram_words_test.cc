// The bytes and bank words of SRAM accesses, dense and scattered, pinned with hand-computed
// numbers: what the SRAM model, the compiler's bank model and the functional executor share.
#include "hw/spec/sram_words.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "hw/spec/config.h"
#include "hw/spec/timing_model.h"

namespace npu::spec {
namespace {

constexpr uint64_t kWidth = 16;  // the default config's bank words

SramAccess Scatter(uint64_t addr, uint64_t run, uint64_t elem_stride, uint64_t count = 1,
                   uint64_t stride = 0) {
  return {addr, run, count, stride, true, elem_stride};
}

std::vector<uint64_t> BankWords(const SramAccess& a, uint64_t banks) {
  std::vector<uint64_t> words(banks, 0);
  AddBankWords(a, kWidth, words);
  return words;
}

TEST(SramWords, SpansOfDenseAndScatteredRuns) {
  EXPECT_EQ(RunSpan(58, 0), 58u);
  EXPECT_EQ(RunSpan(58, 1), 58u);
  EXPECT_EQ(RunSpan(58, 2), 115u);
  EXPECT_EQ(RunSpan(1, 200), 1u);
  EXPECT_EQ(RunSpan(0, 3), 0u);
  // Three runs of 4 bytes at element stride 3, 100 apart: the last ends at 200 + 3*3 + 1.
  EXPECT_EQ(SramAccessSpan(Scatter(7, 4, 3, 3, 100)), 210u);
  EXPECT_EQ(SramAccessSpan(Scatter(7, 0, 3, 3, 100)), 0u);
}

TEST(SramWords, AScatteredRunOccupiesEveryWordOfItsSpanUpToAWordApart) {
  // Dense 58 bytes from 0: words 0..3. At stride 2 from 0: 115 bytes, words 0..7; from 1: 1..115
  // is still words 0..7; from 10: 10..124, words 0..7; from 14: 14..128, words 0..8.
  EXPECT_EQ(SramWords(Scatter(0, 58, 0), kWidth), 4u);
  EXPECT_EQ(SramWords(Scatter(0, 58, 2), kWidth), 8u);
  EXPECT_EQ(SramWords(Scatter(1, 58, 2), kWidth), 8u);
  EXPECT_EQ(SramWords(Scatter(14, 58, 2), kWidth), 9u);
  // Stride exactly a word: one word per byte, consecutive.
  EXPECT_EQ(SramWords(Scatter(5, 10, 16), kWidth), 10u);
  EXPECT_EQ(BankWords(Scatter(5, 10, 16), 4), (std::vector<uint64_t>{3, 3, 2, 2}));
}

TEST(SramWords, BytesMoreThanAWordApartSkipTheWordsBetween) {
  // Stride 40 on 16-byte words: 10 bytes, 10 words (not the 25 of the span), on words
  // 0, 2, 5, 7, 10, 12, 15, 17, 20, 22: on 4 banks 0,2,1,3,2,0,3,1,0,2.
  EXPECT_EQ(SramWords(Scatter(0, 10, 40), kWidth), 10u);
  EXPECT_EQ(BankWords(Scatter(0, 10, 40), 4), (std::vector<uint64_t>{3, 2, 3, 2}));
  // Stride 128 with 8 banks: every byte's word is a multiple of 8, all on bank 0.
  EXPECT_EQ(BankWords(Scatter(3, 12, 128), 8), (std::vector<uint64_t>{12, 0, 0, 0, 0, 0, 0, 0}));
  const NpuConfig c = DefaultConfig();  // 16 banks: ceil(12 / 16) alone, conflicts aside
  EXPECT_EQ(SramIdealCycles(c, Scatter(3, 12, 128)), 1u);
}

TEST(SramWords, RunsOfAStridedAccessAddUp) {
  // Two runs of 8 bytes at element stride 2, 64 apart: word 0 (bytes 0..14) and word 4 (bytes
  // 64..78); with 4 banks both land on bank 0.
  EXPECT_EQ(BankWords(Scatter(0, 8, 2, 2, 64), 4), (std::vector<uint64_t>{2, 0, 0, 0}));
  EXPECT_EQ(SramWords(Scatter(0, 8, 2, 2, 64), kWidth), 2u);
  // Dense runs count as before: 2 runs of 20 bytes from 14, 34 apart: 14..33 is words 0..2,
  // 48..67 words 3..4.
  EXPECT_EQ(SramWords({14, 20, 2, 34, false}, kWidth), 5u);
  EXPECT_EQ(SramIdealCycles(DefaultConfig(), 14, 20, 2, 34), 1u);
}

TEST(SramWords, MovesScatterOnWriteAndGatherOnRead) {
  std::vector<uint8_t> sram(64, 0xEE), data(6);
  std::iota(data.begin(), data.end(), 1);
  // Two runs of 3 bytes at element stride 4, 20 apart, from 2.
  MoveSramBytes(Scatter(2, 3, 4, 2, 20), sram.data(), data.data());
  std::vector<uint8_t> expected(64, 0xEE);
  for (int k = 0; k < 3; ++k)
    expected[2 + 4 * k] = uint8_t(1 + k), expected[22 + 4 * k] = uint8_t(4 + k);
  EXPECT_EQ(sram, expected);
  std::vector<uint8_t> back(6, 0);
  SramAccess read = Scatter(2, 3, 4, 2, 20);
  read.write = false;
  MoveSramBytes(read, sram.data(), back.data());
  EXPECT_EQ(back, data);
}

}  // namespace
}  // namespace npu::spec
