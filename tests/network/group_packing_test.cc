// Grouped convolutions packed side by side (compiler/network/group_packing.h): packed parts
// compute the reference's bytes on every test config (in random token-legal orders too), keep
// the layer's MACs, and take fewer cycles than one convolution per group; the pack size is the
// largest divisor of the group count that fits the columns, and depthwise convolutions and
// one-group-per-column-block layers are left alone.
#include "compiler/network/group_packing.h"

#include <gtest/gtest.h>

#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

// x (h x w x c) -> 3x3 grouped convolution (`groups`, stride 2) -> 1x1 to 16.
ir::Graph Grouped(int64_t groups, int64_t h = 28, int64_t w = 28, int64_t c = 48) {
  QuantGraphBuilder b("grouped", 7);
  ir::Tensor* x = b.Input("x", h, w, c);
  ir::Tensor* g = b.Conv(x, "grouped",
                         {.out_c = c,
                          .kh = 3,
                          .kw = 3,
                          .stride_h = 2,
                          .stride_w = 2,
                          .pads = {1, 1, 1, 1},
                          .group = groups,
                          .activation = "relu"});
  return b.Finish({b.Conv(g, "project", {.out_c = 16})});
}

TEST(GroupPacking, BitExactOnEveryConfigWithTheSameMacs) {
  // 6 groups of 8 channels (packed evenly on 32 columns), 5 of 8 (4 a part, the last part
  // recomputing 3 groups), 12 of 4.
  const std::pair<int64_t, int64_t> shapes[] = {{6, 48}, {5, 40}, {12, 48}};
  for (const NamedConfig& c : SweepConfigs()) {
    for (const auto& [groups, channels] : shapes) {
      SCOPED_TRACE(c.name + " " + std::to_string(groups));
      const ir::Graph g = Grouped(groups, 28, 28, channels);
      const CompiledModel packed = ExpectBitExact(g, c.config, 2);
      CompileOptions apart;
      apart.pack_groups = false;
      const CompiledModel separate = ExpectBitExact(g, c.config, 1, apart);
      EXPECT_EQ(LayerNamed(packed, "grouped").macs, LayerNamed(separate, "grouped").macs);
      EXPECT_EQ(LayerNamed(packed, "grouped").macs,
                uint64_t{14} * 14 * channels * 3 * 3 * (channels / groups));
    }
  }
}

TEST(GroupPacking, FillsTheColumnsAndIsFaster) {
  // 6 groups of 8 channels on 32 columns: 3 a part (4 does not divide 6), 2 parts.
  const spec::NpuConfig config = Config({});
  const ir::Graph g = Grouped(6, 56, 56);
  CompileOptions apart;
  apart.pack_groups = false;
  StatusOr<CompiledModel> packed = CompileModel(config, g, {});
  StatusOr<CompiledModel> separate = CompileModel(config, g, apart);
  ASSERT_TRUE(packed.ok() && separate.ok());
  const NetLayer& layer = packed->network.layers[0];
  ASSERT_EQ(layer.name, "grouped");
  ASSERT_EQ(layer.conv_parts()->size(), 2u);
  EXPECT_EQ(layer.conv_parts()->front().conv.in_c, 24u);
  EXPECT_EQ(layer.conv_parts()->front().conv.groups, 3u);
  EXPECT_EQ(separate->network.layers[0].conv_parts()->size(), 6u);
  EXPECT_LT(LayerNamed(*packed, "grouped").predicted_cycles,
            LayerNamed(*separate, "grouped").predicted_cycles * 3 / 4);
  EXPECT_LT(packed->cost.cycles, separate->cost.cycles);
}

TEST(GroupPacking, PackSizes) {
  struct Case {
    int64_t groups, channels;
    const char* set;
    uint32_t per_part, parts, last_recomputes;
  };
  const Case cases[] = {
      {6, 48, "mac.cols=32", 3, 2, 0},   // 8 channels a group: 4 would fit, 3 divides 6 (2 parts)
      {12, 48, "mac.cols=32", 6, 2, 0},  // 4 channels a group: 8 would fit, 6 divides 12
      {5, 40, "mac.cols=32", 4, 2, 3},   // 5 is prime: 4 a part, the last slid back by 3
      {2, 48, "mac.cols=16", 1, 2, 0},   // 24 channels a group: one is already more than half
      {48, 48, "mac.cols=32", 1, 1, 0},  // depthwise: its own datapath
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.groups);
    StatusOr<CompiledModel> m =
        CompileModel(Config({c.set}), Grouped(c.groups, 28, 28, c.channels), {});
    ASSERT_TRUE(m.ok()) << m.status().message();
    const std::vector<ConvPart>& parts = *m->network.layers[0].conv_parts();
    ASSERT_EQ(parts.size(), c.parts);
    EXPECT_EQ(parts.front().conv.groups, c.per_part);
    EXPECT_EQ(parts.back().recomputed_groups, c.last_recomputes);
    const uint32_t group_out = uint32_t(c.channels / c.groups);
    EXPECT_EQ(parts.back().out_channel_offset + parts.back().conv.out_c, uint32_t(c.channels));
    EXPECT_EQ(parts.back().in_channel_offset, parts.back().out_channel_offset);
    if (c.last_recomputes) {
      EXPECT_EQ(parts.back().out_channel_offset,
                parts[parts.size() - 2].out_channel_offset + parts[parts.size() - 2].conv.out_c -
                    c.last_recomputes * group_out);
    }
  }
}

}  // namespace
}  // namespace npu::compiler::testing
