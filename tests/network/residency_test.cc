// Residency (compiler/network/residency.h): a layer whose operands it allows on chip all are
// reserves only what its tiling needs with them there, so an average pool between two on-chip
// tensors keeps both there even though its tiling with both in DRAM (its reserve otherwise: the
// long bands that hide DRAM latency) would not fit beside them: inception_v3's Mixed_5d.
#include "compiler/network/residency.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "compiler/lower/lower_graph.h"
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

TEST(Residency, APoolBetweenOnChipTensorsReservesOnlyWhatItNeedsThere) {
  const spec::NpuConfig config = Config({"sram.size_bytes=98304"});
  const ir::Graph g = PoolBetweenConvolutions();
  StatusOr<Network> net = LowerGraph(g, {});
  ASSERT_TRUE(net.ok()) << net.status().message();
  StatusOr<ResidencyDecision> d =
      DecideResidency(config, *net, BufferLifetimes(*net), /*allow_on_chip=*/true);
  ASSERT_TRUE(d.ok()) << d.status().message();
  const auto pool = std::find_if(net->layers.begin(), net->layers.end(),
                                 [](const NetLayer& l) { return l.name == "pool"; });
  ASSERT_NE(pool, net->layers.end());
  const int in = net->value(pool->inputs[0]).buffer, out = net->value(pool->output).buffer;
  EXPECT_TRUE(d->on_chip[in]);
  EXPECT_TRUE(d->on_chip[out]);
  // Both 36,864-byte tensors and the pool's reserve for any residency (42 KiB of bands with
  // both in DRAM) exceed the 96 KiB of SRAM: before, the second of them went to DRAM.
  const uint64_t both = AlignUp(net->buffers[in].bytes, StripeBytes(config)) +
                        AlignUp(net->buffers[out].bytes, StripeBytes(config));
  EXPECT_GT(both + d->reserve[pool - net->layers.begin()], config.sram().size_bytes());
  ExpectBitExact(g, config, 2);
}

}  // namespace
}  // namespace npu::compiler::testing
