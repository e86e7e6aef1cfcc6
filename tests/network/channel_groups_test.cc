// Channel groups (compiler/network/channel_groups.h): an expansion and the dilated depthwise
// convolution reading it, which row strips leave whole, become groups of channels whose
// intermediates fit a quarter of the SRAM, with the same output bytes (the integer reference on
// both graphs), bit-exact on the NPU in any token-legal order, with less DRAM traffic; pairs
// whose input or whose single group would not fit, or whose intermediate has another reader,
// stay whole.
#include "compiler/network/channel_groups.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "compiler/network/row_strips.h"
#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

// x (20 x 14 x in_c) -> 1x1 expansion to 48, a table -> 5x5 depthwise dilated by 2 (a window of
// 9 rows, as lraspp's), a table -> 1x1 to 8; with `fork`, the expansion read by another 1x1.
ir::Graph DilatedBlock(int64_t in_c = 8, bool fork = false) {
  QuantGraphBuilder b("dilated", 17);
  ir::Tensor* x = b.Input("x", 20, 14, in_c);
  ir::Tensor* t = b.Lut(b.Conv(x, "expand", {.out_c = 48}), "hardswish1");
  ir::Tensor* d = b.Conv(t, "depthwise", DepthwiseSpec(48, 5, 2));
  ir::Tensor* y = b.Conv(b.Lut(d, "hardswish2"), "project", {.out_c = 8});
  return fork ? b.Finish({y, b.Conv(t, "other", {.out_c = 4})}) : b.Finish({y});
}

// 16 KiB of SRAM: the 20 x 14 x 48 = 13,440-byte expansion exceeds a quarter (4,096 bytes);
// groups of a multiple of 8 columns: 6 of 8 channels (2,240 bytes; 16 would take 4,480).
spec::NpuConfig SmallConfig() {
  return Config({"sram.size_bytes=16384", "mac.rows=8", "mac.cols=8"});
}

int Count(const ir::Graph& g, ir::OpKind kind) { return int(g.NodesOfKind(kind).size()); }

// The pairs of `g` a global pool reads, split in channel groups (none if the split fails).
std::vector<ChannelGroupSplit> SplitPooled(const spec::NpuConfig& config, ir::Graph& g) {
  StatusOr<std::vector<ChannelGroupSplit>> split =
      SplitChannelGroups(config, g, GroupedPairs::kPooled);
  EXPECT_TRUE(split.ok()) << split.status().message();
  return split.ok() ? *split : std::vector<ChannelGroupSplit>{};
}

TEST(ChannelGroups, SplitIntoGroupsThatFitAndComputeTheSameBytes) {
  const spec::NpuConfig config = SmallConfig();
  const ir::Graph whole = DilatedBlock();
  ir::Graph strips = whole.Clone();
  // Row strips would compute the expansion's rows up to 9 times over: they leave it whole.
  ASSERT_TRUE(SplitRowStrips(config, strips)->empty());
  StatusOr<std::vector<ChannelGroupSplit>> split = SplitChannelGroups(config, strips);
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u);
  EXPECT_EQ((*split)[0].conv, "expand");
  EXPECT_EQ((*split)[0].depthwise, "depthwise");
  EXPECT_EQ((*split)[0].channels, std::vector<int64_t>(6, 8));
  EXPECT_EQ((*split)[0].name(), "expand+depthwise");
  ASSERT_EQ((*split)[0].parts.size(), 6u);
  EXPECT_EQ((*split)[0].parts[2].front(), "expand#ch2");  // then its table, depthwise#ch2, ...
  EXPECT_EQ(Count(strips, ir::OpKind::kFusedConv), 6 * 2 + 1);
  EXPECT_EQ(Count(strips, ir::OpKind::kLut), 6 * 2);
  EXPECT_EQ(Count(strips, ir::OpKind::kConcat), 1);
  for (const ir::Node* n : strips.NodesOfKind(ir::OpKind::kFusedConv)) {
    if (n->name().find("depthwise#ch") == 0) {
      EXPECT_EQ(n->attrs().GetInt("group", 0), 8) << n->name();
      EXPECT_EQ(n->input(1)->shape(), (ir::Shape{8, 5, 5, 1})) << n->name();
    }
  }
  ExpectSameBytes(whole, strips, {1u, 2u, 3u});
  // Compiled (row strips on: channel groups come with them), bit-exact in random orders too;
  // each group's depthwise writes its slice of the concatenation (none is left to the control
  // core, no copy), and the expansion no longer goes through DRAM.
  CompileOptions on, off;
  on.row_strips = CompileOptions::RowStrips::kOn;
  off.row_strips = CompileOptions::RowStrips::kOff;
  const CompiledModel m = ExpectBitExact(whole, config, 2, on);
  // Each group's layers say their split and group, in the binary too (reports show each split).
  int groups = 0;
  for (size_t i = 0; i < m.layers.size(); ++i) {
    const ModelLayer& l = m.layers[i];
    EXPECT_FALSE(l.on_cpu) << l.name;
    EXPECT_EQ(l.name.find("copy"), std::string::npos) << l.name;
    const size_t tag = l.name.find("#ch");
    groups += tag != std::string::npos;
    EXPECT_EQ(l.channel_group, tag != std::string::npos ? "expand+depthwise" : "") << l.name;
    EXPECT_EQ(l.channel_part, tag != std::string::npos ? std::stoul(l.name.substr(tag + 3)) : 0)
        << l.name;
    EXPECT_EQ(m.program.layers(int(i)).channel_group(), l.channel_group);
    EXPECT_EQ(m.program.layers(int(i)).channel_part(), l.channel_part);
    EXPECT_EQ(l.fused_group, "") << l.name;  // not row strips: each group's constants its own
  }
  EXPECT_EQ(groups, 6 * 2);
  EXPECT_EQ(m.channel_groups.size(), 1u);
  StatusOr<CompiledModel> plain = CompileModel(config, whole, off);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_LT(m.cost.dram_bytes(), plain->cost.dram_bytes());
}

TEST(ChannelGroups, SplitTheStripsOfRowStripsTooLargeForTheSram) {
  // Told to, row strips split the pair in strips of 2 output rows, which compute up to 10 of the
  // expansion's rows (10 x 14 x 48 = 6,720 bytes; the first and last strip 6, 4,032 bytes, within
  // a quarter): the other 8 strips' pairs split into channel groups too, and each strip's
  // concatenation of channels is placed at its rows of the concatenation of rows.
  const spec::NpuConfig config = SmallConfig();
  const ir::Graph whole = DilatedBlock();
  ir::Graph strips = whole.Clone();
  StatusOr<std::vector<RowStripGroup>> rows = SplitRowStrips(config, strips, {{"depthwise", 2}});
  ASSERT_TRUE(rows.ok() && rows->size() == 1u);
  ASSERT_EQ((*rows)[0].strips.size(), 10u);
  StatusOr<std::vector<ChannelGroupSplit>> split = SplitChannelGroups(config, strips);
  ASSERT_TRUE(split.ok()) << split.status().message();
  EXPECT_EQ(split->size(), 8u);
  ExpectSameBytes(whole, strips, {1u, 2u});
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  on.strip_rows = {{"depthwise", 2}};
  const CompiledModel m = ExpectBitExact(whole, config, 2, on);
  EXPECT_EQ(m.channel_groups.size(), 8u);
  for (const ModelLayer& l : m.layers) EXPECT_FALSE(l.on_cpu) << l.name;
}

TEST(ChannelGroups, BeforeRowStripsWhereAGlobalPoolReadsTheDepthwise) {
  // A squeeze-and-excitation pools the depthwise's whole output before anything reads it again:
  // row strips of the pair would gain nothing over groups, which compute no halo twice. Asked
  // for pooled pairs only, channel groups split that pair (row strips would have: 3x3,
  // undilated) and leave the dilated block's (no pool reads it) to after the strips. By default
  // the compiler tries both orders and keeps the better: bit-exact either way.
  // The 13,440-byte depthwise output takes over three quarters of 16 KiB, so each group pools
  // its own 8 channels (6 pools, their outputs concatenated), and its output reaches the
  // concatenation through a view: placement copies it into its slice right after the group's
  // depthwise, before the next group's, while it is on chip for the group's pool.
  const spec::NpuConfig config = SmallConfig();
  const ir::Graph whole = SqueezeExcitationBlock("se", 23);
  ir::Graph grouped = whole.Clone();
  const std::vector<ChannelGroupSplit> split = SplitPooled(config, grouped);
  ASSERT_EQ(split.size(), 1u);
  EXPECT_EQ(split[0].channels, std::vector<int64_t>(6, 8));
  EXPECT_EQ(Count(grouped, ir::OpKind::kGlobalAveragePool), 6);
  EXPECT_EQ(Count(grouped, ir::OpKind::kIdentity), 6);
  EXPECT_EQ(Count(grouped, ir::OpKind::kConcat), 2);
  const std::vector<std::string>& group0 = split[0].parts[0];
  EXPECT_NE(std::find(group0.begin(), group0.end(), "pool#ch0"), group0.end());
  ExpectSameBytes(whole, grouped, {1u, 2u, 3u});
  ir::Graph dilated = DilatedBlock();
  EXPECT_TRUE(SplitPooled(config, dilated).empty());
  ExpectBitExact(whole, config, 2);
  // The split graph itself (kAuto may keep another variant): every pool reads its group's output
  // from SRAM, and each copy comes after its group's depthwise, before the next group's.
  CompileOptions off;
  off.row_strips = CompileOptions::RowStrips::kOff;
  const CompiledModel m = ExpectBitExact(grouped, config, 2, off);
  int pools = 0;
  std::vector<size_t> copies, depthwise;  // layer indices
  for (size_t i = 0; i < m.layers.size(); ++i) {
    const ModelLayer& l = m.layers[i];
    EXPECT_FALSE(l.on_cpu) << l.name;
    if (l.name.find("pool#ch") == 0) {
      ++pools;
      EXPECT_TRUE(l.on_chip.input[0]) << l.name;
    }
    if (l.op == "copy") {
      copies.push_back(i);
    } else if (l.name.find("depthwise#ch") == 0) {
      depthwise.push_back(i);
    }
  }
  EXPECT_EQ(pools, 6);
  ASSERT_EQ(copies.size(), 6u);
  ASSERT_EQ(depthwise.size(), 6u);
  for (size_t k = 0; k < 6; ++k) {
    EXPECT_GT(copies[k], depthwise[k]);
    if (k + 1 < 6) {
      EXPECT_LT(copies[k], depthwise[k + 1]);
    }
  }
}

TEST(ChannelGroups, APooledPairWhoseOutputTakesOverHalfTheSramGroupsWithinAnEighth) {
  // In 24 KiB the 13,440-byte depthwise output takes over half the SRAM (but under three
  // quarters: it stays whole, pooled once). Its groups' intermediates take at most an eighth of
  // the SRAM (3,072 bytes: six groups of 8 channels, 2,240 bytes each), not a quarter (three of
  // 16, 4,480 bytes), so that the output, the block's input and a group's intermediate fit side
  // by side. In 32 KiB it takes under half: groups within a quarter (8,192 bytes: two of 24).
  for (const auto& [sram, channels] :
       {std::pair{24576, std::vector<int64_t>(6, 8)}, {32768, std::vector<int64_t>(2, 24)}}) {
    SCOPED_TRACE(sram);
    const spec::NpuConfig config =
        Config({"sram.size_bytes=" + std::to_string(sram), "mac.rows=8", "mac.cols=8"});
    const ir::Graph whole = SqueezeExcitationBlock("se", 23);
    ir::Graph grouped = whole.Clone();
    const std::vector<ChannelGroupSplit> split = SplitPooled(config, grouped);
    ASSERT_EQ(split.size(), 1u);
    EXPECT_EQ(split[0].channels, channels);
    EXPECT_EQ(Count(grouped, ir::OpKind::kGlobalAveragePool), 1);
    ExpectSameBytes(whole, grouped, {1u, 2u});
  }
}

// x (20 x 14 x 8) -> 1x1 `head` to 48, a table: a global pool reads its output (a gate: fc1, fc2,
// a table) and so does a 1x1 `cbr`, which the gate scales: lraspp's classifier reading its
// backbone's last output.
ir::Graph PooledHead() {
  QuantGraphBuilder b("pooled_head", 31);
  ir::Tensor* x = b.Input("x", 20, 14, 8);
  ir::Tensor* h = b.Lut(b.Conv(x, "head", {.out_c = 48}), "hardswish");
  ir::Tensor* e = b.Conv(b.GlobalAvgPool(h, "pool"), "fc1", {.out_c = 12, .activation = "relu"});
  ir::Tensor* s = b.Lut(b.Conv(e, "fc2", {.out_c = 16}), "gate");
  return b.Finish({b.Mul(b.Conv(h, "cbr", {.out_c = 16, .activation = "relu"}), s, "scale")});
}

TEST(ChannelGroups, AConvolutionAloneWhoseOutputAGlobalPoolReads) {
  // head's 13,440-byte output takes over three quarters of 16 KiB and a pool reads it: head (with
  // its table) splits into 6 groups of 8 channels, each pooled while on chip and copied into its
  // slice of the concatenation cbr reads. The same bytes, bit-exact, every pool reading SRAM,
  // less DRAM traffic than whole where the whole output cannot stay on chip. With 64 KiB the
  // output is under three quarters: it stays whole.
  const spec::NpuConfig config = SmallConfig();
  const ir::Graph whole = PooledHead();
  ir::Graph grouped = whole.Clone();
  StatusOr<std::vector<ChannelGroupSplit>> split = SplitChannelGroups(config, grouped);
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u);
  EXPECT_EQ((*split)[0].name(), "head");
  EXPECT_EQ((*split)[0].channels, std::vector<int64_t>(6, 8));
  EXPECT_EQ(Count(grouped, ir::OpKind::kGlobalAveragePool), 6);
  ExpectSameBytes(whole, grouped, {1u, 2u, 3u});
  // Compiled from the whole graph, told to fuse but to keep head -> cbr out of row strips (which
  // take it first, each strip adding its rows to the pool's sums: row_strips.h): each group's
  // copy into its slice is the group's (the report counts its cycles there).
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  on.strip_rows = {{"cbr", 0}};
  const CompiledModel fused = ExpectBitExact(whole, config, 2, on);
  ASSERT_EQ(fused.channel_groups.size(), 1u);
  uint32_t copies = 0;
  for (const ModelLayer& l : fused.layers) {
    if (l.op != "copy") continue;
    EXPECT_EQ(l.channel_group, "head") << l.name;
    EXPECT_EQ(l.channel_part, copies++) << l.name;
  }
  EXPECT_EQ(copies, 6u);
  CompileOptions off;
  off.row_strips = CompileOptions::RowStrips::kOff;
  const CompiledModel m = ExpectBitExact(grouped, config, 2, off);
  int pools = 0;
  for (const ModelLayer& l : m.layers) {
    EXPECT_FALSE(l.on_cpu) << l.name;
    if (l.name.find("pool#ch") != 0) continue;
    ++pools;
    EXPECT_TRUE(l.on_chip.input[0]) << l.name;
  }
  EXPECT_EQ(pools, 6);
  // Less DRAM traffic than whole where the whole output cannot stay on chip: in 14 KiB. (In
  // 16 KiB it can, its pool reserving only what it needs with its input there: residency.h.)
  const spec::NpuConfig smaller = Config({"sram.size_bytes=14336", "mac.rows=8", "mac.cols=8"});
  ir::Graph grouped_smaller = whole.Clone();
  ASSERT_EQ(SplitChannelGroups(smaller, grouped_smaller)->size(), 1u);
  StatusOr<CompiledModel> split_smaller = CompileModel(smaller, grouped_smaller, off);
  StatusOr<CompiledModel> plain = CompileModel(smaller, whole, off);
  ASSERT_TRUE(split_smaller.ok()) << split_smaller.status().message();
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_LT(split_smaller->cost.dram_bytes(), plain->cost.dram_bytes());
  ir::Graph roomy = whole.Clone();
  EXPECT_TRUE(SplitChannelGroups(Config({"sram.size_bytes=65536", "mac.rows=8", "mac.cols=8"}),
                                 roomy)
                  ->empty());
}

TEST(ChannelGroups, OtherPairsStayWhole) {
  const spec::NpuConfig config = SmallConfig();
  // The expansion read by another layer too; an input every group would read from DRAM (20 x 14
  // x 16 = 4,480 bytes, over a quarter); no group of 8 channels fitting (an 8x8 array of 32
  // columns: 32 x 280 bytes).
  struct Case {
    const char* what;
    ir::Graph graph;
    spec::NpuConfig config;
  };
  Case cases[] = {
      {"fork", DilatedBlock(8, /*fork=*/true), config},
      {"large input", DilatedBlock(16), config},
      {"wide columns", DilatedBlock(), Config({"sram.size_bytes=16384", "mac.cols=32"})},
  };
  for (Case& c : cases) {
    SCOPED_TRACE(c.what);
    StatusOr<std::vector<ChannelGroupSplit>> split = SplitChannelGroups(c.config, c.graph);
    ASSERT_TRUE(split.ok());
    EXPECT_TRUE(split->empty());
    EXPECT_EQ(Count(c.graph, ir::OpKind::kConcat), 0);
  }
}

}  // namespace
}  // namespace npu::compiler::testing
