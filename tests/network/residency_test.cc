// Residency (compiler/network/residency.h): a layer whose operands it allows on chip all are
// reserves only what its tiling needs with them there, so an average pool between two on-chip
// tensors keeps both there even though its tiling with both in DRAM (its reserve otherwise: the
// long bands that hide DRAM latency) would not fit beside them: inception_v3's Mixed_5d. And
// the greedy keeps first the buffer whose accesses would move the most bytes off chip, unless
// keeping first those that save the most per byte and layer alive saves more.
#include "compiler/network/residency.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "compiler/lower/lower_graph.h"
#include "compiler/network/eviction.h"
#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

// x (24 x 24 x 32) -> 1x1 convolution to 64 -> 3x3 stride-1 average pool -> 1x1 to 32.
ir::Graph PoolBetweenConvolutions() {
  QuantGraphBuilder b("pooled", 5);
  ir::Tensor* x = b.Input("x", 24, 24, 32);
  ir::Tensor* t = b.Conv(x, "expand", {.out_c = 64, .activation = "relu"});
  t = b.AvgPool(t, "pool",
                {.kh = 3, .kw = 3, .stride_h = 1, .stride_w = 1, .pads = {1, 1, 1, 1}});
  return b.Finish({b.Conv(t, "project", {.out_c = 32})});
}

// `g` lowered, and which of its buffers stay on chip.
void Decide(const spec::NpuConfig& config, const ir::Graph& g, Network& net,
            ResidencyDecision& d) {
  StatusOr<Network> lowered = LowerGraph(g, {});
  ASSERT_TRUE(lowered.ok()) << lowered.status().message();
  net = std::move(*lowered);
  StatusOr<ResidencyDecision> decided =
      DecideResidency(config, net, BufferLifetimes(net), /*allow_on_chip=*/true);
  ASSERT_TRUE(decided.ok()) << decided.status().message();
  d = std::move(*decided);
}

TEST(Residency, APoolBetweenOnChipTensorsReservesOnlyWhatItNeedsThere) {
  const spec::NpuConfig config = Config({"sram.size_bytes=98304"});
  const ir::Graph g = PoolBetweenConvolutions();
  Network net;
  ResidencyDecision d;
  ASSERT_NO_FATAL_FAILURE(Decide(config, g, net, d));
  const auto pool = std::find_if(net.layers.begin(), net.layers.end(),
                                 [](const NetLayer& l) { return l.name == "pool"; });
  ASSERT_NE(pool, net.layers.end());
  const int in = net.value(pool->inputs[0]).buffer, out = net.value(pool->output).buffer;
  EXPECT_TRUE(d.on_chip[in]);
  EXPECT_TRUE(d.on_chip[out]);
  // Both 36,864-byte tensors and the pool's reserve for any residency (42 KiB of bands with
  // both in DRAM) exceed the 96 KiB of SRAM: before, the second of them went to DRAM.
  const uint64_t both = AlignUp(net.buffers[in].bytes, StripeBytes(config)) +
                        AlignUp(net.buffers[out].bytes, StripeBytes(config));
  EXPECT_GT(both + d.reserve[pool - net.layers.begin()], config.sram().size_bytes());
  ExpectBitExact(g, config, 2);
}

// x (32 x 32 x 8) -> 1x1 `a` to 32 channels, read twice; x -> four 1x1 convolutions to 8
// channels, concatenated in place into `joined` (32 channels), read once.
ir::Graph AReadTwiceBesideAConcatenationOfFour() {
  QuantGraphBuilder b("concat_beside", 11);
  ir::Tensor* x = b.Input("x", 32, 32, 8);
  ir::Tensor* a = b.Conv(x, "a", {.out_c = 32});
  std::vector<ir::Tensor*> parts;
  for (int k = 0; k < 4; ++k) parts.push_back(b.Conv(x, "part" + std::to_string(k), {.out_c = 8}));
  ir::Tensor* joined = b.Concat(parts, "joined");
  ir::Tensor* first = b.Conv(a, "first_of_a", {.out_c = 8});
  ir::Tensor* of_joined = b.Conv(joined, "of_joined", {.out_c = 8});
  return b.Finish({first, of_joined, b.Conv(a, "second_of_a", {.out_c = 8})});
}

int BufferOf(const Network& net, const std::string& layer) {
  for (const NetLayer& l : net.layers) {
    if (l.name == layer) return net.value(l.output).buffer;
  }
  ADD_FAILURE() << "no layer " << layer;
  return -1;
}

// `a` and the concatenation (32 KiB each) do not both fit in 48 KiB. Kept is `a`: off chip, its
// write and two reads would move 96 KiB, the concatenation's four part writes and one read
// 64 KiB. Counted as buffer bytes times accesses (the greedy's measure before), the
// concatenation's five accesses made it 160 KiB and it won.
TEST(Residency, KeepsOnChipTheBufferWhoseAccessesWouldMoveTheMostBytes) {
  const spec::NpuConfig config = Config({"sram.size_bytes=49152"});
  const ir::Graph g = AReadTwiceBesideAConcatenationOfFour();
  Network net;
  ResidencyDecision d;
  ASSERT_NO_FATAL_FAILURE(Decide(config, g, net, d));
  const int a = BufferOf(net, "a"), joined = BufferOf(net, "part0");
  ASSERT_NE(a, joined);
  EXPECT_EQ(BufferOf(net, "part3"), joined);  // the parts are written in place
  EXPECT_EQ(OffChipTraffic(net)[a], 3u * 32768);
  EXPECT_EQ(OffChipTraffic(net)[joined], 2u * 32768);
  EXPECT_TRUE(d.on_chip[a]);
  EXPECT_FALSE(d.on_chip[joined]);
  ExpectBitExact(g, config, 2);
}


// A squeeze-and-excitation block in 32 KiB: the greedy decides the scaling's output (13,440
// bytes, written and read once) long before the gate it multiplies by (48 bytes, one pixel).
// A layer reserves what its tiling needs with its operands on chip only if they all are; an
// eligible operand of one pixel counts as there, so the scaling's output stays on chip. Before,
// the scaling reserved for its gate in DRAM and its output went to DRAM (as a global pool's
// input did: lraspp's 732 KB squeeze-and-excitation tensors).
TEST(Residency, AnOperandOfOnePixelCountsAsOnChipForItsLayersReserve) {
  const spec::NpuConfig config = Config({"sram.size_bytes=32768"});
  const ir::Graph g = SqueezeExcitationBlock("se", 3);
  Network net;
  ResidencyDecision d;
  ASSERT_NO_FATAL_FAILURE(Decide(config, g, net, d));
  EXPECT_TRUE(d.on_chip[BufferOf(net, "depthwise")]);
  EXPECT_TRUE(d.on_chip[BufferOf(net, "fc1")]);
  EXPECT_TRUE(d.on_chip[BufferOf(net, "scale")]);
  ExpectBitExact(g, config, 2);
}

// x (32 x 32 x 8) -> 1x1 `long` to 24 channels, read only by the last layer, a join; x -> 1x1
// `c1` -> `c2` -> `c3` (16 channels each) -> `c4` (24), joined with `long`.
ir::Graph ALongLivedBufferBesideAChain() {
  QuantGraphBuilder b("long_lived", 13);
  ir::Tensor* x = b.Input("x", 32, 32, 8);
  ir::Tensor* lived = b.Conv(x, "long", {.out_c = 24});
  ir::Tensor* c = x;
  for (const char* name : {"c1", "c2", "c3"}) c = b.Conv(c, name, {.out_c = 16});
  return b.Finish({b.Add(b.Conv(c, "c4", {.out_c = 24}), lived, "join")});
}

// In 56 KiB, most traffic first keeps `long` (24 KiB, written and read once: 48 KiB of traffic)
// from the first layer to the last, and beside it only c1 and c3 fit (112 KiB saved). By
// traffic per byte and layer alive, c1 to c4 stay on chip and `long` goes to DRAM: 144 KiB
// saved, so that order's decision is kept.
TEST(Residency, ALongLivedBufferDoesNotCrowdOutTheShortLivedOnesThatSaveMore) {
  const spec::NpuConfig config = Config({"sram.size_bytes=57344"});
  const ir::Graph g = ALongLivedBufferBesideAChain();
  Network net;
  ResidencyDecision d;
  ASSERT_NO_FATAL_FAILURE(Decide(config, g, net, d));
  EXPECT_FALSE(d.on_chip[BufferOf(net, "long")]);
  uint64_t saved = 0;
  for (const char* name : {"c1", "c2", "c3", "c4"}) {
    EXPECT_TRUE(d.on_chip[BufferOf(net, name)]) << name;
    saved += OffChipTraffic(net)[BufferOf(net, name)];
  }
  EXPECT_EQ(saved, 3u * 32768 + 49152);
  ExpectBitExact(g, config, 2);
}

}  // namespace
}  // namespace npu::compiler::testing
