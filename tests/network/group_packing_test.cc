// Grouped convolutions as one grouped CONV (compiler/network/group_packing.h): the packed layer
// computes the reference's bytes on every test config (in random token-legal orders too), keeps
// the layer's MACs, takes fewer cycles than one convolution per group, and its CONVs hold whole
// groups; depthwise convolutions are left alone.
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

// The MACs of layer `name`, or of its row strips where row strips split it.
uint64_t MacsOf(const CompiledModel& m, const std::string& name) {
  uint64_t macs = 0;
  for (const ModelLayer& l : m.layers) {
    if (l.name == name || l.name.starts_with(name + "#strip")) macs += l.macs;
  }
  return macs;
}

TEST(GroupPacking, BitExactOnEveryConfigWithTheSameMacs) {
  // 6 groups of 8 channels, 5 of 8 (oc tiles of 4 groups and 1), 12 of 4.
  const std::pair<int64_t, int64_t> shapes[] = {{6, 48}, {5, 40}, {12, 48}};
  for (const NamedConfig& c : SweepConfigs()) {
    for (const auto& [groups, channels] : shapes) {
      SCOPED_TRACE(c.name + " " + std::to_string(groups));
      const ir::Graph g = Grouped(groups, 28, 28, channels);
      const CompiledModel packed = ExpectBitExact(g, c.config, 2);
      CompileOptions apart;
      apart.pack_groups = false;
      const CompiledModel separate = ExpectBitExact(g, c.config, 1, apart);
      EXPECT_EQ(MacsOf(packed, "grouped"), MacsOf(separate, "grouped"));
      EXPECT_EQ(MacsOf(packed, "grouped"),
                uint64_t{14} * 14 * channels * 3 * 3 * (channels / groups));
    }
  }
}

TEST(GroupPacking, FillsTheColumnsAndIsFaster) {
  // 6 groups of 8 channels on 32 columns: one grouped part; its CONVs take whole groups.
  const spec::NpuConfig config = Config({});
  const ir::Graph g = Grouped(6, 56, 56);
  CompileOptions apart;
  apart.pack_groups = false;
  StatusOr<CompiledModel> packed = CompileModel(config, g, {});
  StatusOr<CompiledModel> separate = CompileModel(config, g, apart);
  ASSERT_TRUE(packed.ok() && separate.ok());
  const NetLayer& layer = packed->network.layers[0];
  ASSERT_EQ(layer.name, "grouped");
  ASSERT_EQ(layer.conv_parts()->size(), 1u);
  EXPECT_EQ(layer.conv_parts()->front().conv.in_c, 48u);
  EXPECT_EQ(layer.conv_parts()->front().conv.groups, 6u);
  EXPECT_EQ(separate->network.layers[0].conv_parts()->size(), 6u);
  int grouped_convs = 0;
  for (const spec::Instruction& insn : packed->instructions) {
    const auto* conv = std::get_if<spec::ConvArgs>(&insn.args);
    if (conv == nullptr || conv->groups == 1) continue;
    ++grouped_convs;
    EXPECT_EQ(conv->out_c, conv->groups * 8) << "an oc tile of whole groups";
    EXPECT_EQ(conv->in_c, conv->groups * 8);
  }
  EXPECT_GT(grouped_convs, 0);
  EXPECT_LT(LayerNamed(*packed, "grouped").predicted_cycles,
            LayerNamed(*separate, "grouped").predicted_cycles / 2);
  EXPECT_LT(packed->cost.cycles, separate->cost.cycles);
}

TEST(GroupPacking, OneGroupedPartPerLayer) {
  struct Case {
    int64_t groups, channels;
    const char* set;
    uint32_t parts, part_groups;
  };
  const Case cases[] = {
      {6, 48, "mac.cols=32", 1, 6},
      {5, 40, "mac.cols=32", 1, 5},   // 8 channels a group: oc tiles of 4 groups and of 1
      {2, 48, "mac.cols=16", 1, 2},   // 24 channels a group: more than the columns
      {48, 48, "mac.cols=32", 1, 1},  // depthwise: its own datapath, not grouped
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.groups);
    StatusOr<CompiledModel> m =
        CompileModel(Config({c.set}), Grouped(c.groups, 28, 28, c.channels), {});
    ASSERT_TRUE(m.ok()) << m.status().message();
    const std::vector<ConvPart>& parts = *m->network.layers[0].conv_parts();
    ASSERT_EQ(parts.size(), c.parts);
    EXPECT_EQ(parts.front().conv.groups, c.part_groups);
    EXPECT_EQ(parts.front().conv.depthwise, c.groups == c.channels);
    EXPECT_EQ(parts.front().conv.out_c, uint32_t(c.channels));
  }
}

}  // namespace
}  // namespace npu::compiler::testing
