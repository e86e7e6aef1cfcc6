// Eviction (compiler/network/eviction.h): when the SRAM overflows, the buffer sent back to DRAM
// is the cheapest in traffic for the room it makes, not the largest.
#include "compiler/network/eviction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "compiler/lower/lower_graph.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

// resnext50_32x4d's layer2: its sums (one buffer, read and written by four blocks: a dozen
// accesses) against a strip's intermediate, written and read once.
TEST(Eviction, TheCheapestBufferPerByteFreedThatMakesRoomGoes) {
  const EvictionCandidate sums{.buffer = 3, .bytes = 401408, .traffic = 12 * 401408};
  const EvictionCandidate strip{.buffer = 7, .bytes = 57344, .traffic = 2 * 57344};
  const EvictionCandidate tiny{.buffer = 9, .bytes = 4096, .traffic = 4096};
  EXPECT_EQ(CheapestToEvict({sums, strip, tiny}, 41 * 1024), 7);
  // Too small to make room: only the sums do.
  EXPECT_EQ(CheapestToEvict({sums, strip, tiny}, 60 * 1024), 3);
  // None makes room: the largest, which makes the most.
  EXPECT_EQ(CheapestToEvict({strip, sums, tiny}, 500000), 3);
  // Equally cheap per byte: the larger.
  const EvictionCandidate twice{.buffer = 5, .bytes = 2 * 57344, .traffic = 4 * 57344};
  EXPECT_EQ(CheapestToEvict({strip, twice}, 0), 5);
  EXPECT_EQ(CheapestToEvict({twice, strip}, 0), 5);
  EXPECT_EQ(CheapestToEvict({}, 0), -1);
}

// A fake planner over four buffers: it fits once buffer 3 is off chip, and asks for buffers 0,
// 1, 3 and 2 in that order to go back. Buffers 0 and 1 went back for nothing: they come back.
TEST(Eviction, BuffersSentBackBeforeTheLastComeBackIfThePlanStillFits) {
  const auto fits_without = [](std::vector<int> needed_off) {
    return [needed_off](const std::vector<bool>& on_chip, int /*evicted*/,
                        int& victim) -> StatusOr<std::optional<std::vector<bool>>> {
      const bool fits = std::none_of(needed_off.begin(), needed_off.end(),
                                     [&](int b) { return on_chip[b]; });
      if (fits) return std::optional<std::vector<bool>>(on_chip);
      for (const int b : {0, 1, 3, 2}) {
        if (on_chip[b]) {
          victim = b;
          break;
        }
      }
      return std::optional<std::vector<bool>>();
    };
  };
  StatusOr<std::vector<bool>> plan =
      SendBackUntilFits<std::vector<bool>>(std::vector<bool>(4, true), fits_without({3}));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(*plan, (std::vector<bool>{true, true, true, false}));
  // Needing 1 and 3 off: 0 came back with nothing else, so the plan sends 0, 1 and 3 back (the
  // earlier ones come back together or not at all).
  plan = SendBackUntilFits<std::vector<bool>>(std::vector<bool>(4, true), fits_without({1, 3}));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(*plan, (std::vector<bool>{false, false, true, false}));
  // Fitting at once: nothing goes back.
  plan = SendBackUntilFits<std::vector<bool>>(std::vector<bool>(4, true), fits_without({}));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(*plan, std::vector<bool>(4, true));
}

// ResidualOfTwoConvolutions: a's buffer is written once and read twice.
TEST(Eviction, OffChipTrafficCountsEveryReadAndWriteOfABuffersValues) {
  const ir::Graph graph = ResidualOfTwoConvolutions();
  StatusOr<Network> net = LowerGraph(graph, {});
  ASSERT_TRUE(net.ok()) << net.status().message();
  const std::vector<uint64_t> traffic = OffChipTraffic(*net);
  ASSERT_EQ(traffic.size(), net->buffers.size());
  const auto layer = [&](const std::string& name) {
    return *std::find_if(net->layers.begin(), net->layers.end(),
                         [&](const NetLayer& l) { return l.name == name; });
  };
  const uint64_t bytes = 6 * 5 * 16;
  EXPECT_EQ(traffic[net->value(layer("a").output).buffer], 3 * bytes);  // a; b, sum read it
  EXPECT_EQ(traffic[net->value(layer("b").output).buffer], 2 * bytes);  // b; sum reads it
  EXPECT_EQ(traffic[net->value(layer("sum").output).buffer], bytes);    // sum writes it
  EXPECT_EQ(traffic[net->value(layer("a").inputs[0]).buffer], 6 * 5 * 8);  // a reads x
}

}  // namespace
}  // namespace npu::compiler::testing
