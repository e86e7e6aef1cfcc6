// Cross-layer interleaving (compiler/schedule/interleave.h): where each instruction of the later
// layer lands on hand-built streams, and, on random streams, that every conflicting pair keeps
// its order and each layer keeps its own.
#include "compiler/schedule/interleave.h"

#include <gtest/gtest.h>

#include <random>

#include "hw/spec/footprint.h"
#include "tests/compiler/hand_insns.h"

namespace npu::compiler {
namespace {

using testing::Act;
using testing::Conv;
using testing::Load;
using testing::Store;

TEST(Interleave, EachInstructionGoesRightAfterWhatItReads) {
  // The earlier layer makes two output bytes (1000, then 2000); the later one stores each, after
  // loading something of its own that the earlier layer never touches.
  const std::vector<spec::Instruction> earlier = {Conv(0, 16, 100, 0), Act(0, 200, 1000),
                                                  Conv(0, 16, 100, 64), Act(64, 200, 2000)};
  const std::vector<spec::Instruction> later = {Load(3000, 16), Store(1000, 1), Store(2000, 1)};
  // The leading load waits with the first store that needs the earlier layer (after ACT 1).
  EXPECT_EQ(InterleaveOrder(earlier, later), (std::vector<uint32_t>{0, 1, 4, 5, 2, 3, 6}));
}

TEST(Interleave, AWriteWaitsForTheLastReadOfWhatItOverwrites) {
  // The later layer's load overwrites the input the earlier layer's second CONV reads (WAR).
  const std::vector<spec::Instruction> earlier = {Conv(0, 16, 100, 0), Conv(0, 16, 100, 64),
                                                  Act(0, 200, 1000)};
  const std::vector<spec::Instruction> later = {Load(0, 16)};
  EXPECT_EQ(InterleaveOrder(earlier, later), (std::vector<uint32_t>{0, 1, 3, 2}));
}

TEST(Interleave, AnIndependentLayerGoesFirstAndAnEmptyOneChangesNothing) {
  const std::vector<spec::Instruction> earlier = {Conv(0, 16, 100, 0), Act(0, 200, 1000)};
  EXPECT_EQ(InterleaveOrder(earlier, {Load(5000, 8), Store(5000, 8)}),
            (std::vector<uint32_t>{2, 3, 0, 1}));
  EXPECT_EQ(InterleaveOrder(earlier, {}), (std::vector<uint32_t>{0, 1}));
}

// A random instruction touching a few of 8 small SRAM slots and 4 accumulator slots.
spec::Instruction RandomInstruction(std::mt19937& rng) {
  auto slot = [&](uint32_t n) { return uint32_t(rng() % n) * 64; };
  switch (rng() % 4) {
    case 0:
      return Load(slot(8), 16);
    case 1:
      return Store(slot(8), 16);
    case 2:
      return Conv(slot(8), 16, slot(8), slot(4) / 16);
    default:
      return Act(slot(4) / 16, slot(8), slot(8));
  }
}

TEST(Interleave, RandomStreamsKeepEveryConflictingPairAndEachLayersOrder) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<spec::Instruction> earlier(rng() % 12), later(rng() % 12);
    for (auto& insn : earlier) insn = RandomInstruction(rng);
    for (auto& insn : later) insn = RandomInstruction(rng);
    const std::vector<uint32_t> order = InterleaveOrder(earlier, later);
    ASSERT_EQ(order.size(), earlier.size() + later.size());
    std::vector<size_t> position(order.size());
    for (size_t p = 0; p < order.size(); ++p) position[order[p]] = p;
    for (size_t i = 1; i < earlier.size(); ++i) EXPECT_LT(position[i - 1], position[i]);
    for (size_t k = 1; k < later.size(); ++k) {
      EXPECT_LT(position[earlier.size() + k - 1], position[earlier.size() + k]);
    }
    for (size_t i = 0; i < earlier.size(); ++i) {
      for (size_t k = 0; k < later.size(); ++k) {
        if (spec::Conflicts(spec::Footprints(earlier[i]), spec::Footprints(later[k]))) {
          EXPECT_LT(position[i], position[earlier.size() + k]) << "trial " << trial;
        }
      }
    }
  }
}

}  // namespace
}  // namespace npu::compiler
