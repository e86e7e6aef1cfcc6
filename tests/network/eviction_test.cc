// Eviction (compiler/network/eviction.h): when the SRAM overflows, the buffer sent back to DRAM
// is the cheapest in traffic for the room it makes, not the largest.
#include "compiler/network/eviction.h"

#include <gtest/gtest.h>

#include <algorithm>

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
