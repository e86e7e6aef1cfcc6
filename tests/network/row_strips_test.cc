// Fused layer groups in row strips (compiler/network/row_strips.h): an expansion and the
// convolution reading it become strips whose intermediates fit a quarter of the SRAM, with the
// same output bytes (the integer reference on both graphs), bit-exact on the NPU in any
// token-legal order; pairs that are not a pointwise producer with one reader stay whole; and on
// mobilenet_v2 the 112x112x96 expansion stops going through DRAM.
#include "compiler/network/row_strips.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <variant>

#include "compiler/network/compile_model.h"
#include "compiler/network/image_gemms.h"
#include "compiler/network/model_pipeline.h"
#include "compiler/qinterp/qinterp.h"
#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

// x (20 x 14 x 8) -> 1x1 expansion to 48 -> 3x3 depthwise at `stride`, padded -> 1x1 to 8.
ir::Graph InvertedResidual(int64_t stride, bool fork = false, int64_t expand_kernel = 1) {
  QuantGraphBuilder b("block", 5);
  ir::Tensor* x = b.Input("x", 20, 14, 8);
  const int64_t pad = expand_kernel / 2;
  ir::Tensor* t = b.Conv(x, "expand",
                         {.out_c = 48,
                          .kh = expand_kernel,
                          .kw = expand_kernel,
                          .pads = {pad, pad, pad, pad},
                          .activation = "relu6"});
  ir::Tensor* d = b.Conv(t, "depthwise",
                         {.out_c = 48,
                          .kh = 3,
                          .kw = 3,
                          .stride_h = stride,
                          .stride_w = stride,
                          .pads = {1, 1, 1, 1},
                          .group = 48});
  ir::Tensor* y = b.Conv(d, "project", {.out_c = 8});
  return fork ? b.Finish({y, b.Conv(t, "other", {.out_c = 4})}) : b.Finish({y});
}

// x (20 x 14 x 32) -> 1x1 to 8 -> 3x3 to 8 -> 1x1 back to 32, added to x (a bottleneck), or
// to a 1x1 projection of x too (`project_residual`); `blocks` of them one after the other,
// their last sum the output, or every block's (`every_sum`).
ir::Graph Bottleneck(bool project_residual = false, int blocks = 1, bool every_sum = false) {
  QuantGraphBuilder b("bottleneck", 7);
  ir::Tensor* x = b.Input("x", 20, 14, 32);
  std::vector<ir::Tensor*> sums;
  for (int i = 0; i < blocks; ++i) {
    const std::string n = i == 0 ? "" : std::to_string(i);
    ir::Tensor* t = b.Conv(x, "reduce" + n, {.out_c = 8, .activation = "relu"});
    t = b.Conv(t, "conv3x3" + n, {.out_c = 8, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
    t = b.Conv(t, "expand" + n, {.out_c = 32});
    ir::Tensor* residual =
        project_residual && i == 0 ? b.Conv(x, "downsample", {.out_c = 32}) : x;
    x = b.Add(t, residual, "join" + n, /*relu=*/true);
    sums.push_back(x);
  }
  return b.Finish(every_sum ? sums : std::vector<ir::Tensor*>{x});
}

int Count(const ir::Graph& g, ir::OpKind kind) { return int(g.NodesOfKind(kind).size()); }

TEST(RowStrips, SplitIntoStripsThatFitAndComputeTheSameBytes) {
  // 20 x 14 x 48 = 13,440 bytes of intermediate; a quarter of 16 KiB is 4,096 bytes, 6 rows of
  // 672: 4 output rows a strip at stride 1 (5 strips), 2 at stride 2 (5 strips).
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  for (int64_t stride : {1, 2}) {
    SCOPED_TRACE(stride);
    const ir::Graph whole = InvertedResidual(stride);
    ir::Graph strips = whole.Clone();
    StatusOr<std::vector<RowStripGroup>> split = SplitRowStrips(config, strips);
    ASSERT_TRUE(split.ok()) << split.status().message();
    ASSERT_EQ(split->size(), 1u);
    EXPECT_EQ((*split)[0].name(), "expand+depthwise");
    EXPECT_EQ((*split)[0].rows, 4 / stride);
    EXPECT_EQ((*split)[0].strips.size(), 5u);
    EXPECT_EQ(Count(strips, ir::OpKind::kSlice), 5);
    EXPECT_EQ(Count(strips, ir::OpKind::kConcat), 1);
    EXPECT_EQ(Count(strips, ir::OpKind::kFusedConv), 5 * 2 + 1);
    for (const ir::Node* n : strips.NodesOfKind(ir::OpKind::kFusedConv)) {
      if (n->name().find("expand#") != 0) continue;
      EXPECT_LE(ir::NumElements(n->output(0)->shape()), 4096) << n->name();
    }
    ExpectSameBytes(whole, strips, {1u, 2u, 3u});
    // The compiled strips against the reference of the whole graph, in random orders too.
    CompileOptions on;
    on.row_strips = CompileOptions::RowStrips::kOn;
    const CompiledModel m = ExpectBitExact(whole, config, 2, on);
    // Each strip's two layers say their group and strip, in the binary too.
    int strip_layers = 0;
    for (size_t i = 0; i < m.layers.size(); ++i) {
      const ModelLayer& l = m.layers[i];
      const bool strip = l.name.find("#strip") != std::string::npos;
      strip_layers += strip;
      EXPECT_EQ(l.fused_group, strip ? "expand+depthwise" : "") << l.name;
      EXPECT_EQ(m.program.layers(int(i)).fused_group(), l.fused_group);
      EXPECT_EQ(m.program.layers(int(i)).strip(), l.strip);
      if (strip) {
        EXPECT_EQ(l.name.substr(l.name.size() - 1), std::to_string(l.strip)) << l.name;
      }
    }
    EXPECT_EQ(strip_layers, 10);
    EXPECT_EQ(m.row_strip_groups.size(), 1u);
    // By default the compiler keeps whichever it predicts fastest: the graph whole, these
    // strips, or every pair split (depthwise -> project too: one chain of the three layers).
    CompileOptions off;
    off.row_strips = CompileOptions::RowStrips::kOff;
    StatusOr<CompiledModel> plain = CompileModel(config, whole, off);
    StatusOr<CompiledModel> chosen = CompileModel(config, whole, {});
    ASSERT_TRUE(plain.ok() && chosen.ok());
    EXPECT_LE(chosen->cost.cycles, std::min(plain->cost.cycles, m.cost.cycles));
    EXPECT_EQ(chosen->row_strip_groups.size(), chosen->cost.cycles < plain->cost.cycles ? 1u : 0u);
  }
}

TEST(RowStrips, TheAutomaticChoiceReportsEachVariantCompiled) {
  // kAuto tells a tool's progress line how many of its variants are compiled: 0 of them first,
  // then one more each time, to all; told the split (kOn) or none (kOff), it compiles one graph
  // and says nothing.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384", "mac.rows=8", "mac.cols=8"});
  const ir::Graph whole = InvertedResidual(1);
  std::vector<std::pair<size_t, size_t>> heard;
  CompileOptions options;
  options.progress = [&](size_t compiled, size_t variants) {
    heard.emplace_back(compiled, variants);
  };
  ASSERT_TRUE(CompileModel(config, whole, options).ok());
  ASSERT_GE(heard.size(), 3u);  // the graph whole and at least one split
  const size_t variants = heard[0].second;
  ASSERT_EQ(heard.size(), variants + 1);
  for (size_t k = 0; k < heard.size(); ++k) {
    EXPECT_EQ(heard[k], std::make_pair(k, variants));
  }
  for (const auto strips : {CompileOptions::RowStrips::kOn, CompileOptions::RowStrips::kOff}) {
    heard.clear();
    options.row_strips = strips;
    ASSERT_TRUE(CompileModel(config, whole, options).ok());
    EXPECT_TRUE(heard.empty());
  }
}

TEST(RowStrips, ABottlenecksLastConvolutionAndItsResidualJoinInStrips) {
  // expand's 20 x 14 x 32 = 8,960 bytes exceed a quarter of 16 KiB; a join's strip keeps
  // within a third of that, 1,365 bytes: 3 rows of 448 a strip, 7 strips. A projected residual
  // (the 1x1 downsample's 8,960 bytes, read by the join alone) is the group's branch: each
  // strip computes its rows of it too, unless told not to (it is then sliced like x).
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  for (bool project_residual : {false, true}) {
    for (bool branches : {true, false}) {
      SCOPED_TRACE(::testing::Message() << project_residual << branches);
      const bool branch = project_residual && branches;
      const ir::Graph whole = Bottleneck(project_residual);
      ir::Graph strips = whole.Clone();
      StatusOr<std::vector<RowStripGroup>> split =
          SplitRowStrips(config, strips, {}, {.branches = branches});
      ASSERT_TRUE(split.ok()) << split.status().message();
      ASSERT_EQ(split->size(), 1u);
      // The join's first operand written by a pointwise convolution is the strips' producer.
      const RowStripGroup& group = (*split)[0];
      EXPECT_EQ(group.name(), branch ? "expand+join+downsample" : "expand+join");
      EXPECT_EQ(group.branches,
                branch ? std::vector<std::string>{"downsample"} : std::vector<std::string>{});
      EXPECT_EQ(group.rows, 3);
      ASSERT_EQ(group.strips.size(), 7u);
      EXPECT_EQ(group.strips[1].size(), branch ? 3u : 2u);
      if (branch) {
        EXPECT_EQ(group.strips[1][2].name, "downsample#strip1");
        EXPECT_EQ(group.strips[1][2].rows, 3);
        EXPECT_EQ(group.strips[1][2].recomputed_rows, 0);
      }
      // Each strip slices expand's input and the residual (or, with the branch, its input).
      EXPECT_EQ(Count(strips, ir::OpKind::kSlice), 2 * 7);
      EXPECT_EQ(Count(strips, ir::OpKind::kFusedAdd), 7);
      EXPECT_EQ(Count(strips, ir::OpKind::kFusedConv),
                2 + 7 + (project_residual ? (branch ? 7 : 1) : 0));
      ExpectSameBytes(whole, strips, {1u, 2u});
    }
    CompileOptions on;
    on.row_strips = CompileOptions::RowStrips::kOn;
    const CompiledModel m = ExpectBitExact(Bottleneck(project_residual), config, 2, on);
    const std::string group = project_residual ? "expand+join+downsample" : "expand+join";
    int in_group = 0;
    for (const ModelLayer& l : m.layers) in_group += l.fused_group == group;
    EXPECT_EQ(in_group, (project_residual ? 3 : 2) * 7);
  }
  // The next block's residual is rows of this one's strips: the strips still write their rows
  // of the sum in place (no copy, no concatenation left on the control core), and the second
  // pair is split as well.
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  const CompiledModel m = ExpectBitExact(Bottleneck(false, 2), config, 2, on);
  EXPECT_EQ(m.row_strip_groups.size(), 2u);
  for (const ModelLayer& l : m.layers) {
    EXPECT_FALSE(l.on_cpu) << l.name;
    EXPECT_EQ(l.name.find("copy"), std::string::npos) << l.name;
  }
}

TEST(RowStrips, AJoinsStripsWriteTheSumOverTheirRowsOfTheBlocksInput) {
  // Two bottlenecks, each expand -> join in 7 strips of 3 rows (above): the second join's
  // strips each write their rows of the sum over their rows of the first sum, which nothing
  // reads after them, so the two sums share a buffer (compiler/lower/network.h,
  // MakeElementwiseInPlace). The first sum's input is the graph's, which stays.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  const CompiledModel m = ExpectBitExact(Bottleneck(false, 2), config, 2, on);
  EXPECT_EQ(m.row_strip_groups.size(), 2u);
  EXPECT_EQ(m.memory.elementwise_in_place, 7);
  // Not if the host reads the first sum too.
  const CompiledModel both = ExpectBitExact(Bottleneck(false, 2, true), config, 2, on);
  EXPECT_EQ(both.row_strip_groups.size(), 2u);
  EXPECT_EQ(both.memory.elementwise_in_place, 0);
}

TEST(RowStrips, BandHeightsAsTold) {
  // The default is 4 output rows a strip (above); a tuning may say otherwise, or keep it whole.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph whole = InvertedResidual(1);
  const std::vector<RowStripPair> pairs = RowStripPairs(config, whole);
  ASSERT_EQ(pairs.size(), 2u);  // the depthwise's output, read by project, is a pair too,
  EXPECT_EQ(pairs[1].consumer, "project");
  EXPECT_FALSE(pairs[1].by_default);  // split only as a tuning says (a windowed producer)
  EXPECT_TRUE(pairs[0].by_default);
  EXPECT_EQ(pairs[0].consumer, "depthwise");
  EXPECT_EQ(pairs[0].out_rows, 20);
  EXPECT_EQ(pairs[0].default_rows, 4);
  const std::pair<int64_t, int> cases[] = {{0, 0}, {2, 10}, {7, 3}, {19, 2}, {20, 0}, {99, 0}};
  for (const auto& [rows, strips] : cases) {
    SCOPED_TRACE(rows);
    ir::Graph g = whole.Clone();
    StatusOr<std::vector<RowStripGroup>> split =
        SplitRowStrips(config, g, {{"depthwise", rows}, {"project", 0}});
    ASSERT_TRUE(split.ok());
    EXPECT_EQ(split->size(), strips > 0 ? 1u : 0u);
    EXPECT_EQ(Count(g, ir::OpKind::kSlice), strips);
    if (strips == 0) continue;
    ExpectSameBytes(whole, g, {1u});
  }
}

TEST(RowStrips, OnlyPairsOverflowingTheSramSplitWhenAsked) {
  // expand -> depthwise: 13,440 bytes of intermediate and as many of output. Over a quarter of
  // 32 KiB, so split by default, but the two fit side by side: with overflowing_only the pair
  // stays whole, unless a tuning says. In 24 KiB they do not: split.
  for (const auto& [sram, split_pairs] : {std::pair{32768, 0u}, {24576, 1u}}) {
    SCOPED_TRACE(sram);
    const spec::NpuConfig config = Config({"sram.size_bytes=" + std::to_string(sram)});
    ir::Graph by_default = InvertedResidual(1);
    EXPECT_EQ(SplitRowStrips(config, by_default)->size(), 1u);
    ir::Graph overflowing = InvertedResidual(1);
    StatusOr<std::vector<RowStripGroup>> split =
        SplitRowStrips(config, overflowing, {}, {.overflowing_only = true});
    ASSERT_TRUE(split.ok());
    ASSERT_EQ(split->size(), split_pairs);
    if (split_pairs > 0) {
      EXPECT_EQ((*split)[0].name(), "expand+depthwise");
    }
    ir::Graph told = InvertedResidual(1);
    EXPECT_EQ(SplitRowStrips(config, told, {{"depthwise", 5}}, {.overflowing_only = true})->size(),
              1u);
  }
}

TEST(RowStrips, OfThePairsNotSplitByDefaultOnlyThoseWithLargeIntermediatesWhenAsked) {
  // depthwise -> project is not split by default (its producer is not pointwise); its 13,440-byte
  // intermediate is over half of 16 KiB but not over 90 %.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  for (const auto& [share, name] :
       {std::pair{0.9, "expand+depthwise"}, {0.5, "expand+depthwise+project"}}) {
    SCOPED_TRACE(share);
    ir::Graph g = InvertedResidual(1);
    StatusOr<std::vector<RowStripGroup>> split =
        SplitRowStrips(config, g, {}, {.every_pair = true, .other_pairs_above = share});
    ASSERT_TRUE(split.ok()) << split.status().message();
    ASSERT_EQ(split->size(), 1u);
    EXPECT_EQ((*split)[0].name(), name);
  }
}

TEST(RowStrips, StripsSizedByWhatIsAliveAtOnce) {
  // expand -> depthwise (3x3, stride 1, padded) with kept halos: a strip of r rows of the
  // depthwise's output reads r + 2 rows of the 14 x 48 expansion (672 bytes a row), its halo
  // kept from the strip before; twice over, within alive_share of the SRAM: 2 x 7 x 672 = 9,408
  // bytes hold strips of 5 rows, a byte less 4.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  for (const auto& [budget, rows] : {std::pair{9408, 5}, {9407, 4}}) {
    SCOPED_TRACE(budget);
    ir::Graph g = InvertedResidual(1);
    StatusOr<std::vector<RowStripGroup>> split = SplitRowStrips(
        config, g, {}, {.keep_halos = true, .alive_share = budget / 16384.0});
    ASSERT_TRUE(split.ok()) << split.status().message();
    ASSERT_EQ(split->size(), 1u);
    EXPECT_EQ((*split)[0].name(), "expand+depthwise");
    EXPECT_EQ((*split)[0].rows, rows);
  }
  // Through residual blocks a chain's intermediates are not all alive at once: at each node, the
  // rows it reads, those the next node reads of its output and those of a sum its join waits
  // for. Three bottlenecks (14 pixels a row; 448 bytes a row of 32 channels, 112 of 8) in strips
  // of r rows: busiest is reduce1 in the first strip, which reads r + 2 rows of the first sum,
  // conv3x31 reading r + 2 rows of its output and join1 waiting for r + 1 rows of the first sum:
  // 2 x (1,008 r + 1,568) bytes, within half of 16 KiB for r = 2. (Every intermediate of a strip
  // at once, as RowsWithin counts, would fit 1.)
  const ir::Graph whole = Bottleneck(false, 3);
  ir::Graph kept = whole.Clone();
  StatusOr<std::vector<RowStripGroup>> split =
      SplitRowStrips(config, kept, {}, {.keep_halos = true, .alive_share = 0.5});
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u);
  EXPECT_EQ((*split)[0].name(),
            "expand+join+reduce1+conv3x31+expand1+join1+reduce2+conv3x32+expand2+join2");
  EXPECT_EQ((*split)[0].rows, 2);
  ExpectSameBytes(whole, kept, {1u, 2u});
}

TEST(RowStrips, OtherPairsStayWhole) {
  const spec::NpuConfig small = Config({"sram.size_bytes=16384"});
  // The expansion has a second reader: only depthwise -> project may split.
  ir::Graph fork = InvertedResidual(1, /*fork=*/true);
  StatusOr<std::vector<RowStripGroup>> split = SplitRowStrips(small, fork);
  ASSERT_TRUE(split.ok());
  for (const RowStripGroup& group : *split) EXPECT_NE(group.producer(), "expand");
  ir::Graph fits = InvertedResidual(1);  // 13,440 bytes: no more than a quarter of 1 MiB
  EXPECT_TRUE(SplitRowStrips(Config({}), fits)->empty());
}

// x (20 x 14 x 8) -> 1x1 expansion to 48 -> a table -> 3x3 depthwise (dilated by `dilation`)
// -> a table -> 1x1 to 8: efficientnet's and mobilenet_v3's blocks, whose SiLU and HardSwish
// the quantiser makes tables.
ir::Graph InvertedResidualWithTables(int64_t dilation = 1) {
  QuantGraphBuilder b("tables", 13);
  ir::Tensor* x = b.Input("x", 20, 14, 8);
  ir::Tensor* t = b.Lut(b.Conv(x, "expand", {.out_c = 48}), "silu1");
  ir::Tensor* d = b.Conv(t, "depthwise", DepthwiseSpec(48, 3, dilation));
  return b.Finish({b.Conv(b.Lut(d, "silu2"), "project", {.out_c = 8})});
}

TEST(RowStrips, TablesBetweenAndAfterThePairRunInTheStrips) {
  // As SplitIntoStripsThatFit...: 4 output rows a strip, 5 strips; each strip applies the
  // expansion's table before its depthwise and the depthwise's after it, and the compiled
  // strips fuse each into its convolution's ACTs (no table layer left).
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph whole = InvertedResidualWithTables();
  const std::vector<RowStripPair> pairs = RowStripPairs(config, whole);
  ASSERT_FALSE(pairs.empty());
  EXPECT_EQ(pairs[0].consumer, "depthwise");
  EXPECT_TRUE(pairs[0].by_default);
  ir::Graph strips = whole.Clone();
  StatusOr<std::vector<RowStripGroup>> split = SplitRowStrips(config, strips);
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u);
  EXPECT_EQ((*split)[0].name(), "expand+depthwise");
  EXPECT_EQ((*split)[0].strips.size(), 5u);
  EXPECT_EQ(Count(strips, ir::OpKind::kLut), 2 * 5);
  EXPECT_EQ(Count(strips, ir::OpKind::kFusedConv), 2 * 5 + 1);
  ExpectSameBytes(whole, strips, {1u, 2u, 3u});
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  const CompiledModel m = ExpectBitExact(whole, config, 2, on);
  int strip_layers = 0;
  for (const ModelLayer& l : m.layers) {
    EXPECT_EQ(l.name.find("silu"), std::string::npos) << l.name;
    strip_layers += l.fused_group == "expand+depthwise";
  }
  EXPECT_EQ(strip_layers, 2 * 5);
}

// x (20 x 14 x 16) -> `blocks` convnext blocks: a 7x7 depthwise convolution, a layer
// normalisation, a Linear layer to `expand` channels, a table (GELU), a Linear layer back to 16,
// added to the block's input.
ir::Graph ConvNextStage(int blocks, int64_t expand = 24) {
  QuantGraphBuilder b("convnext", 17);
  ir::Tensor* x = b.Input("x", 20, 14, 16);
  for (int i = 0; i < blocks; ++i) {
    const std::string n = std::to_string(i);
    ir::Tensor* t = b.LayerNorm(b.Conv(x, "dw" + n, DepthwiseSpec(16, 7, 1)), "norm" + n);
    t = b.Lut(b.Gemm(t, "linear1_" + n, expand), "gelu" + n);
    x = b.Add(b.Gemm(t, "linear2_" + n, 16), x, "join" + n);
  }
  return b.Finish({x});
}

TEST(RowStrips, ConvNextBlocksRunAsOneChainThroughTheirNormalisations) {
  // The Linear layers over the image are 1x1 convolutions to the rewrite (image_gemms.h), and a
  // layer normalisation is the table of the depthwise convolution before it (per pixel: a strip
  // normalises its own rows), so with kept halos both blocks split as one chain: dw -> norm ->
  // linear1 -> gelu -> linear2 -> join, the first block's sum read by the second's depthwise and
  // join in the strips (the two blocks' constants, 3.6 KB, within a chain's quarter of the SRAM).
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph whole = ConvNextStage(2);
  const ir::Graph convs = ImageGemmsAsConvolutions(whole);
  EXPECT_EQ(Count(convs, ir::OpKind::kGemm), 0);
  EXPECT_EQ(Count(convs, ir::OpKind::kFusedConv), 6);
  ExpectSameBytes(whole, convs, {1u, 2u});
  std::vector<std::string> consumers;
  for (const RowStripPair& pair : RowStripPairs(config, convs)) {
    consumers.push_back(pair.consumer);
    EXPECT_TRUE(pair.by_default) << pair.consumer;
  }
  EXPECT_EQ(consumers, (std::vector<std::string>{"linear1_0", "linear2_0", "join0", "dw1",
                                                 "linear1_1", "linear2_1", "join1"}));
  ir::Graph strips = convs.Clone();
  StatusOr<std::vector<RowStripGroup>> split =
      SplitRowStrips(config, strips, {}, {.keep_halos = true});
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u) << (*split)[0].name();
  EXPECT_EQ((*split)[0].nodes, (std::vector<std::string>{"dw0", "linear1_0", "linear2_0", "join0",
                                                          "dw1", "linear1_1", "linear2_1",
                                                          "join1"}));
  for (const ir::Node* n : strips.NodesOfKind(ir::OpKind::kLayerNormalization)) {
    EXPECT_NE(n->name().find("#strip"), std::string::npos) << n->name();
  }
  EXPECT_GT(Count(strips, ir::OpKind::kLayerNormalization), 2);
  ExpectSameBytes(whole, strips, {1u, 2u});
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  on.keep_halos = true;
  const CompiledModel m = ExpectBitExact(whole, config, 2, on);
  ASSERT_EQ(m.row_strip_groups.size(), 1u);
  int norms = 0;
  for (const ModelLayer& l : m.layers) {
    norms += l.name.rfind("norm", 0) == 0 && l.fused_group == (*split)[0].name();
  }
  EXPECT_EQ(norms, Count(strips, ir::OpKind::kLayerNormalization));
}

TEST(RowStrips, PairsWhoseConstantsStripsWouldReloadSplitOnlyAsTold) {
  // Expanding to 160 channels, each Linear layer's weights (2,560 bytes) and bias (640) take the
  // pair's constants (6,400 bytes) past a quarter of 16 KiB: no strip could hold them, every
  // strip would LOAD them again.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph convs = ImageGemmsAsConvolutions(ConvNextStage(1, 160));
  for (const RowStripPair& pair : RowStripPairs(config, convs)) {
    EXPECT_EQ(pair.by_default, pair.consumer != "linear2_0") << pair.consumer;
  }
}

TEST(RowStrips, PairsRecomputingMuchOfTheirHaloSplitOnlyAsTold) {
  // Dilated by 4, the depthwise's window spans 9 rows, so a quarter of 16 KiB (6 rows of 672
  // bytes) takes 1 output row a strip, which computes up to 9 of the expansion's rows: 160 of
  // its 20 in all (8x), past kMaxDefaultRecompute. Told, they split (bit-exact all the same).
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph whole = InvertedResidualWithTables(/*dilation=*/4);
  const std::vector<RowStripPair> pairs = RowStripPairs(config, whole);
  ASSERT_FALSE(pairs.empty());
  EXPECT_EQ(pairs[0].consumer, "depthwise");
  EXPECT_FALSE(pairs[0].by_default);
  ir::Graph unsplit = whole.Clone();
  EXPECT_TRUE(SplitRowStrips(config, unsplit)->empty());
  const std::map<std::string, int64_t> told = {{"depthwise", pairs[0].default_rows}};
  ir::Graph strips = whole.Clone();
  ASSERT_EQ(SplitRowStrips(config, strips, told)->size(), 1u);
  ExpectSameBytes(whole, strips, {1u, 2u});
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  on.strip_rows = told;
  EXPECT_EQ(ExpectBitExact(whole, config, 2, on).row_strip_groups.size(), 1u);
}

// x (24 x 16 x 3) -> 3x3 stride-2 convolution to 64 channels -> 3x3 stride-2 max pool, both
// padded (a stem), or the inverted residual with a 3x3 expansion.
ir::Graph Stem() {
  QuantGraphBuilder b("stem", 11);
  ir::Tensor* x = b.Input("x", 24, 16, 3);
  ir::Tensor* t = b.Conv(x, "conv1",
                         {.out_c = 64, .kh = 3, .kw = 3, .stride_h = 2, .stride_w = 2,
                          .pads = {1, 1, 1, 1}, .activation = "relu"});
  return b.Finish({b.MaxPool(t, "pool", {.kh = 3, .kw = 3, .pads = {1, 1, 1, 1}})});
}

TEST(RowStrips, WindowedProducersAndMaxPoolsSplitWithTheirHalos) {
  // The strips' producers read their own halo rows too, padded only at the image's borders.
  // Such a pair splits only as told (a tuning's band height).
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const std::pair<ir::Graph, const char*> cases[] = {
      {Stem(), "conv1+pool"},  // 12 x 8 x 64 = 6,144 bytes: 3 pool rows (7 of conv1's) a strip
      {InvertedResidual(1, false, /*expand_kernel=*/3), "expand+depthwise"}};
  for (const auto& [whole, name] : cases) {
    SCOPED_TRACE(name);
    const std::vector<RowStripPair> pairs = RowStripPairs(config, whole);
    ASSERT_FALSE(pairs.empty());
    EXPECT_FALSE(pairs[0].by_default);
    ir::Graph unsplit = whole.Clone();
    EXPECT_TRUE(SplitRowStrips(config, unsplit)->empty());
    const std::map<std::string, int64_t> told = {{pairs[0].consumer, pairs[0].default_rows}};
    ir::Graph strips = whole.Clone();
    StatusOr<std::vector<RowStripGroup>> split = SplitRowStrips(config, strips, told);
    ASSERT_TRUE(split.ok()) << split.status().message();
    ASSERT_FALSE(split->empty());
    EXPECT_EQ((*split)[0].name(), name);
    EXPECT_GT((*split)[0].strips.size(), 1u);
    if ((*split)[0].consumer() == "pool") {
      EXPECT_EQ((*split)[0].rows, 3);
    }
    ExpectSameBytes(whole, strips, {1u, 2u});
    CompileOptions on;
    on.row_strips = CompileOptions::RowStrips::kOn;
    on.strip_rows = told;
    EXPECT_FALSE(ExpectBitExact(whole, config, 2, on).row_strip_groups.empty());
  }
}

TEST(RowStrips, PairsSharingALayerSplitAsOneChain) {
  // conv_a -> conv_b and conv_b -> pool share conv_b: one group of the three layers, in strips
  // of the pool's rows. The pool's pair alone would take 3 rows a strip (conv_b's 7 of 512 bytes
  // within a quarter of 16 KiB), but conv_a's 9 rows would not fit: 2 pool rows a strip (conv_b's
  // 5 rows, conv_a's 7), 6 strips.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  // x (24 x 16 x 3) -> 3x3 convolution to 32 -> 3x3 convolution to 32 -> 3x3 stride-2 max pool,
  // all padded: inception_v3's stem, whose two intermediates both exceed a quarter of the SRAM.
  const ir::Graph whole = TwoConvolutionsAndAPool("stem2", 17, 3, 32);
  const std::vector<RowStripPair> pairs = RowStripPairs(config, whole);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[1].consumer, "pool");
  EXPECT_EQ(pairs[1].producer, "conv_b");  // pairs[0]'s consumer: a chain
  EXPECT_EQ(pairs[0].producer, "conv_a");
  EXPECT_EQ(pairs[1].default_rows, 3);
  ir::Graph strips = whole.Clone();
  StatusOr<std::vector<RowStripGroup>> split =
      SplitRowStrips(config, strips, {}, {.every_pair = true});
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u);
  const RowStripGroup& chain = (*split)[0];
  EXPECT_EQ(chain.name(), "conv_a+conv_b+pool");
  EXPECT_TRUE(chain.Splits("conv_b") && chain.Splits("pool") && !chain.Splits("conv_a"));
  EXPECT_EQ(chain.rows, 2);
  ASSERT_EQ(chain.strips.size(), 6u);
  for (const auto& strip : chain.strips) EXPECT_EQ(strip.size(), 3u);
  // Strip 1's 2 pool rows read conv_b's rows 3-7, of which row 3 strip 0 computed too; those
  // read conv_a's rows 2-8, of which rows 2-4.
  EXPECT_EQ(chain.strips[1][0].name, "conv_a#strip1");
  EXPECT_EQ(chain.strips[1][0].rows, 7);
  EXPECT_EQ(chain.strips[1][0].recomputed_rows, 3);
  EXPECT_EQ(chain.strips[1][1].rows, 5);
  EXPECT_EQ(chain.strips[1][1].recomputed_rows, 1);
  EXPECT_EQ(chain.strips[1][2].recomputed_rows, 0);
  EXPECT_EQ(Count(strips, ir::OpKind::kSlice), 6);  // the input alone is sliced
  EXPECT_EQ(Count(strips, ir::OpKind::kFusedConv), 2 * 6);
  EXPECT_EQ(Count(strips, ir::OpKind::kMaxPool), 6);
  for (const ir::Node* n : strips.NodesOfKind(ir::OpKind::kFusedConv)) {
    EXPECT_LE(ir::NumElements(n->output(0)->shape()), 4096) << n->name();
  }
  ExpectSameBytes(whole, strips, {1u, 2u});
  // As pairs instead, conv_a -> conv_b splits and conv_b -> pool (its producer gone) stays whole.
  ir::Graph as_pairs = whole.Clone();
  split = SplitRowStrips(config, as_pairs, {}, {.every_pair = true, .chains = false});
  ASSERT_TRUE(split.ok());
  ASSERT_EQ(split->size(), 1u);
  EXPECT_EQ((*split)[0].name(), "conv_a+conv_b");
  ExpectSameBytes(whole, as_pairs, {1u});
  // Told (a tuning's rows: the last pair's count, the other's only says to split), compiled
  // bit-exact in any token-legal order, each strip's three layers in the group.
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  on.strip_rows = {{"conv_b", 1}, {"pool", 4}};
  const CompiledModel m = ExpectBitExact(whole, config, 2, on);
  ASSERT_EQ(m.row_strip_groups.size(), 1u);
  EXPECT_EQ(m.row_strip_groups[0].strips.size(), 3u);  // 12 pool rows, 4 a strip
  int in_group = 0;
  uint64_t network_macs = 0;
  for (const ModelLayer& l : m.layers) {
    in_group += l.fused_group == "conv_a+conv_b+pool";
    network_macs += l.macs - l.recomputed_macs;
  }
  EXPECT_EQ(in_group, 3 * 3);
  // The roofline and the least DRAM traffic count the network's work and constants once: those
  // of the graph compiled whole.
  CompileOptions off;
  off.row_strips = CompileOptions::RowStrips::kOff;
  StatusOr<CompiledModel> plain = CompileModel(config, whole, off);
  ASSERT_TRUE(plain.ok());
  uint64_t plain_macs = 0;
  for (const ModelLayer& l : plain->layers) plain_macs += l.macs;
  EXPECT_EQ(network_macs, plain_macs);
  EXPECT_EQ(m.min_dram_bytes, plain->min_dram_bytes);
}

TEST(RowStrips, KeptHalosComputeEveryRowOnce) {
  // The chain conv_a -> conv_b -> pool (PairsSharingALayerSplitAsOneChain) with kept halos: each
  // strip computes only the rows no strip before did, reading the rows its windows share with
  // the strip before (kept) beside its own: no row is computed twice, and the bytes are the
  // same. Compiled, the kept rows are copied next to the strip's own (no concatenation on the
  // control core), bit-exact in any token-legal order, with fewer MACs than recomputing.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph whole = TwoConvolutionsAndAPool("stem2", 17, 3, 32);
  ir::Graph kept = whole.Clone();
  StatusOr<std::vector<RowStripGroup>> split =
      SplitRowStrips(config, kept, {}, {.every_pair = true, .keep_halos = true});
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u);
  const RowStripGroup& chain = (*split)[0];
  EXPECT_EQ(chain.name(), "conv_a+conv_b+pool");
  std::vector<int64_t> rows(3, 0);
  for (const auto& strip : chain.strips) {
    for (const RowStripGroup::Layer& l : strip) {
      EXPECT_EQ(l.recomputed_rows, 0) << l.name;
      rows[l.node] += l.rows;
    }
  }
  EXPECT_EQ(rows, (std::vector<int64_t>{24, 24, 12}));  // each node's output rows, once
  EXPECT_GT(Count(kept, ir::OpKind::kConcat), 1);         // kept rows beside a strip's own
  ExpectSameBytes(whole, kept, {1u, 2u});
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  on.strip_rows = {{"pool", 2}};
  const CompiledModel recomputing = ExpectBitExact(whole, config, 1, on);
  on.keep_halos = true;
  const CompiledModel m = ExpectBitExact(whole, config, 2, on);
  uint64_t macs = 0, recomputing_macs = 0, copies = 0;
  for (const ModelLayer& l : m.layers) {
    EXPECT_FALSE(l.on_cpu) << l.name;
    EXPECT_EQ(l.recomputed_macs, 0u) << l.name;
    macs += l.macs;
    copies += l.name.find("copy") != std::string::npos;
  }
  for (const ModelLayer& l : recomputing.layers) recomputing_macs += l.macs;
  EXPECT_GT(copies, 0u);
  EXPECT_LT(macs, recomputing_macs);
}

TEST(RowStrips, KeptHalosChainsRunThroughResidualBlocks) {
  // Three bottlenecks: each block's sum (20 x 14 x 32, over a quarter of 16 KiB) is read by the
  // next block's reduce and its join. With kept halos one chain runs from the first expand
  // through every block to the last join (the reduce -> conv3x3 -> expand pairs on the way split
  // although their 2,240 bytes fit: only so the sums stay in strips), each strip reading its
  // residual rows from the strips of the sum before; no sum is whole but the last. Recomputing,
  // chains stop at each join: three groups, each block's sum whole.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph whole = Bottleneck(false, 3);
  ir::Graph kept = whole.Clone();
  StatusOr<std::vector<RowStripGroup>> split =
      SplitRowStrips(config, kept, {}, {.keep_halos = true});
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u);
  EXPECT_EQ((*split)[0].name(),
            "expand+join+reduce1+conv3x31+expand1+join1+reduce2+conv3x32+expand2+join2");
  // Each block a strip behind the one before: a join is followed by the next strip's first
  // convolution, which does not wait for it.
  const auto position = [&](const std::string& name) {
    const std::vector<ir::Node*> nodes = kept.nodes();
    return std::find_if(nodes.begin(), nodes.end(),
                        [&](const ir::Node* n) { return n->name() == name; }) -
           nodes.begin();
  };
  EXPECT_LT(position("join#strip0"), position("expand#strip1"));
  EXPECT_LT(position("expand#strip1"), position("reduce1#strip0"));
  EXPECT_LT(position("join1#strip0"), position("expand#strip2"));
  // Skewed, each block's strip outputs stay a strip longer: the strips take half the rows.
  const RowStripPair last = RowStripPairs(config, whole).back();
  ASSERT_EQ(last.consumer, "join2");
  EXPECT_EQ((*split)[0].rows, last.default_rows / 2);
  ir::Graph taller = whole.Clone();
  split = SplitRowStrips(config, taller, {}, {.keep_halos = true, .skewed_rows = 1});
  ASSERT_TRUE(split.ok());
  ASSERT_EQ(split->size(), 1u);
  EXPECT_EQ((*split)[0].rows, last.default_rows);
  ExpectSameBytes(whole, kept, {1u, 2u});
  ir::Graph recomputing = whole.Clone();
  split = SplitRowStrips(config, recomputing);
  ASSERT_TRUE(split.ok());
  ASSERT_EQ(split->size(), 3u);
  EXPECT_EQ((*split)[1].name(), "expand1+join1");
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  const CompiledModel pairs = ExpectBitExact(whole, config, 1, on);
  on.keep_halos = true;
  const CompiledModel m = ExpectBitExact(whole, config, 2, on);
  ASSERT_EQ(m.row_strip_groups.size(), 1u);
  for (const ModelLayer& l : m.layers) EXPECT_FALSE(l.on_cpu) << l.name;
  EXPECT_LT(m.cost.dram_bytes(), pairs.cost.dram_bytes());
}

// A built-in model compiled whole and as the automatic choice makes it, on the default config.
struct WholeAndChosen {
  StatusOr<CompiledModel> whole = InvalidArgument("not compiled"),
                          chosen = InvalidArgument("not compiled");
};
WholeAndChosen CompileWholeAndChosen(const std::string& model) {
  ModelPipelineOptions options;
  options.calibration_samples = 1;
  options.compute_reference = false;
  StatusOr<QuantizedModel> q = QuantizeModel(model, options);
  EXPECT_TRUE(q.ok()) << q.status().message();
  if (!q.ok()) return {};
  CompileOptions whole;
  whole.row_strips = CompileOptions::RowStrips::kOff;
  return {CompileForConfig(*q, Config({}), whole), CompileForConfig(*q, Config({}), {})};
}

TEST(RowStrips, AChannelScalingAndTheConvolutionReadingIt) {
  // The squeeze-and-excitation product (20 x 14 x 48 = 13,440 bytes, over a quarter of 16 KiB)
  // is a strip's producer: each strip scales its rows of the depthwise's output (a row slice)
  // by the whole excitation and projects them, by default (6 rows of 672 bytes a strip: 4
  // strips); the product never goes through DRAM.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph whole = SqueezeExcitationBlock("se", 19);
  const std::vector<RowStripPair> pairs = RowStripPairs(config, whole);
  const auto pair = std::find_if(pairs.begin(), pairs.end(),
                                 [](const RowStripPair& p) { return p.producer == "scale"; });
  ASSERT_NE(pair, pairs.end());
  EXPECT_EQ(pair->consumer, "project");
  EXPECT_TRUE(pair->by_default);
  ir::Graph strips = whole.Clone();
  StatusOr<std::vector<RowStripGroup>> split = SplitRowStrips(config, strips);
  ASSERT_TRUE(split.ok()) << split.status().message();
  const auto group = std::find_if(split->begin(), split->end(),
                                  [](const RowStripGroup& g) { return g.producer() == "scale"; });
  ASSERT_NE(group, split->end());
  EXPECT_EQ(group->name(), "scale+project");
  EXPECT_EQ(group->rows, 6);
  EXPECT_EQ(group->strips.size(), 4u);
  EXPECT_EQ(Count(strips, ir::OpKind::kMul), 4);
  ExpectSameBytes(whole, strips, {1u, 2u});
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  const CompiledModel m = ExpectBitExact(whole, config, 2, on);
  int scaled = 0;
  for (const ModelLayer& l : m.layers) scaled += l.fused_group == "scale+project";
  EXPECT_EQ(scaled, 2 * 4);
}

// x (40 x 28 x 8) -> 1x1 `expand` to 48, a table -> 3x3 `depthwise`, a table -> squeeze and
// excitation -> `scale` -> 1x1 `project` to 8 -> `join` with x: lraspp's blocks 12 and 13.
ir::Graph ResidualSqueezeExcitationBlock() {
  QuantGraphBuilder b("residual_se", 19);
  ir::Tensor* x = b.Input("x", 40, 28, 8);
  ir::Tensor* t = b.Lut(b.Conv(x, "expand", {.out_c = 48}), "table1");
  ir::Tensor* d = b.Lut(b.Conv(t, "depthwise", DepthwiseSpec(48, 3)), "table2");
  ir::Tensor* e = b.Conv(b.GlobalAvgPool(d, "pool"), "fc1", {.out_c = 12, .activation = "relu"});
  ir::Tensor* s = b.Lut(b.Conv(e, "fc2", {.out_c = 48}), "gate");
  return b.Finish({b.Add(b.Conv(b.Mul(d, s, "scale"), "project", {.out_c = 8}), x, "join")});
}

TEST(RowStrips, AChannelScalingsStripsTakeAQuarterOfWhatItsImageLeaves) {
  // In 80 KiB the depthwise's output (40 x 28 x 48 = 53,760 bytes), which the scaling reads
  // whole, takes at most three quarters of the SRAM, so may stay on chip, but not with strips of
  // a quarter of the SRAM (15 rows) beside it, twice over, and the 8,960-byte projection. The
  // strips take a quarter of the 28,160 bytes it leaves, 5 rows of 1,344 bytes.
  const ir::Graph whole = ResidualSqueezeExcitationBlock();
  const auto scaling_pair = [&](const spec::NpuConfig& config) {
    const std::vector<RowStripPair> pairs = RowStripPairs(config, whole);
    const auto pair = std::find_if(pairs.begin(), pairs.end(),
                                   [](const RowStripPair& p) { return p.producer == "scale"; });
    return pair != pairs.end() ? *pair : RowStripPair{};
  };
  const spec::NpuConfig config = Config({"sram.size_bytes=81920"});
  const RowStripPair pair = scaling_pair(config);
  EXPECT_EQ(pair.consumer, "project");
  EXPECT_EQ(pair.image, 53760);
  EXPECT_EQ(pair.limit, 7040);
  EXPECT_EQ(pair.default_rows, 5);
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  const CompiledModel beside = ExpectBitExact(whole, config, 1, on);
  on.strip_rows = {{"project", 15}};
  const CompiledModel quarter = ExpectBitExact(whole, config, 1, on);
  // Until stop 51 the quarter's strips went through DRAM (more than twice the traffic, and
  // slower). Now each strip's product lies in the image's rows it scales (compile_model.cc,
  // PlanProductsOverTheirImages), the quarter's strips fit beside the image too: 5,567
  // cycles and 36,960 bytes of DRAM traffic against 5,884 and 37,888. (The rule's rows are
  // now cautious: a note on issue 15.)
  EXPECT_LE(quarter.cost.dram_bytes(), beside.cost.dram_bytes());
  // An image over three quarters of the SRAM goes through DRAM; in 128 KiB the strips of a
  // quarter fit beside it (53,760 + 2 x 32,768 + 8,960 bytes): they keep a quarter.
  for (const int64_t sram : {65536, 131072}) {
    const RowStripPair other = scaling_pair(Config({"sram.size_bytes=" + std::to_string(sram)}));
    EXPECT_EQ(other.consumer, "project");
    EXPECT_EQ(other.image, 0);
    EXPECT_EQ(other.limit, sram / 4);
  }
}

TEST(RowStrips, AProductStripScalesItsRowsWhereTheyLieInTheImage) {
  // In 80 KiB the depthwise's output (53,760 bytes) may stay on chip beside the strips: each
  // strip's product is written over the rows of it the strip scales, which nothing reads
  // again (compile_model.cc, PlanProductsOverTheirImages), so the strips' products take no
  // SRAM of their own. In 64 KiB the image goes through DRAM: the products keep their buffers.
  const ir::Graph whole = ResidualSqueezeExcitationBlock();
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  for (const int64_t sram : {81920, 65536}) {
    SCOPED_TRACE(sram);
    const CompiledModel m =
        ExpectBitExact(whole, Config({"sram.size_bytes=" + std::to_string(sram)}), 1, on);
    int products = 0;
    for (const NetLayer& l : m.network.layers) {
      if (l.name.rfind("scale#strip", 0) != 0) continue;
      ++products;
      const ActivationValue &in = m.network.value(l.inputs[0]), &out = m.network.value(l.output);
      EXPECT_EQ(in.buffer == out.buffer, sram == 81920) << l.name;
      if (in.buffer == out.buffer) {
        EXPECT_EQ(in.byte_offset, out.byte_offset) << l.name;
      }
    }
    EXPECT_GT(products, 2);
  }
}

// x (20 x 14 x 16) -> 1x1 `last` to 96, a table -> 1x1 `cbr` to 16, times the excitation of
// the table's global average `pool` (`fc`, a table): lraspp's backbone output and classifier.
ir::Graph PooledHead() {
  QuantGraphBuilder b("pooled_head", 23);
  ir::Tensor* x = b.Input("x", 20, 14, 16);
  ir::Tensor* t = b.Lut(b.Conv(x, "last", {.out_c = 96}), "hardswish");
  ir::Tensor* c = b.Conv(t, "cbr", {.out_c = 16, .activation = "relu"});
  ir::Tensor* s = b.Lut(b.Conv(b.GlobalAvgPool(t, "pool"), "fc", {.out_c = 16}), "gate");
  return b.Finish({b.Mul(c, s, "scale")});
}

TEST(RowStrips, AGlobalPoolBesideTheConsumerSumsEachStripsRows) {
  // The table's 20 x 14 x 96 = 26,880-byte output, over a quarter of 16 KiB, is read by `cbr`
  // and the pool. Each strip (3 rows of 1,344 bytes within 4,096: 7 strips) adds its rows to the
  // pool's int32 sums, and the pool's mean takes them once all are in: the output never needs
  // to be whole, so it stays off DRAM. Accumulated in DRAM too (every activation there), the
  // sums give the same bytes.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph whole = PooledHead();
  const std::vector<RowStripPair> pairs = RowStripPairs(config, whole);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].producer, "last");
  EXPECT_EQ(pairs[0].consumer, "cbr");
  EXPECT_TRUE(pairs[0].by_default);
  ir::Graph strips = whole.Clone();
  StatusOr<std::vector<RowStripGroup>> split = SplitRowStrips(config, strips);
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u);
  EXPECT_EQ((*split)[0].name(), "last+cbr");
  EXPECT_EQ((*split)[0].strips.size(), 7u);
  EXPECT_EQ(Count(strips, ir::OpKind::kPoolSum), 7);
  EXPECT_EQ(Count(strips, ir::OpKind::kPoolMean), 1);
  EXPECT_EQ(Count(strips, ir::OpKind::kGlobalAveragePool), 0);
  ExpectSameBytes(whole, strips, {1u, 2u, 3u});
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  const CompiledModel m = ExpectBitExact(whole, config, 2, on);
  int sums = 0;
  for (const ModelLayer& l : m.layers) {
    if (l.op != "pool_sum") continue;
    ++sums;
    EXPECT_EQ(l.fused_group, "last+cbr") << l.name;
  }
  EXPECT_EQ(sums, 7);
  CompileOptions off;
  off.row_strips = CompileOptions::RowStrips::kOff;
  StatusOr<CompiledModel> plain = CompileModel(config, whole, off);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_LT(m.cost.dram_bytes() + 2 * 26880, plain->cost.dram_bytes());
  on.keep_activations_on_chip = false;
  const CompiledModel in_dram = ExpectBitExact(whole, config, 1, on);
  int loaded = 0;  // accumulating sums, each LOADed into its slot just before
  for (size_t i = 1; i < in_dram.instructions.size(); ++i) {
    const auto* pool = std::get_if<spec::PoolArgs>(&in_dram.instructions[i].args);
    if (pool == nullptr || !pool->accumulate) continue;
    EXPECT_EQ(in_dram.instructions[i - 1].opcode, spec::Opcode::kLoad);
    ++loaded;
  }
  EXPECT_EQ(loaded, 6);
}

// x (20 x 14 x 4) -> 3x3 `stem` to 16, a table -> 3x3 depthwise -> 1x1 `project` -> `join`,
// the sum of project's output and the stem's: lraspp's and mobilenet_v3's first block, whose
// input is the stem's output.
ir::Graph StemAndResidualBlock() {
  QuantGraphBuilder b("stem_block", 29);
  ir::Tensor* x = b.Input("x", 20, 14, 4);
  ir::Tensor* s =
      b.Lut(b.Conv(x, "stem", {.out_c = 16, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}}), "table");
  ir::Tensor* d = b.Conv(
      s, "depthwise", {.out_c = 16, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}, .group = 16});
  return b.Finish({b.Add(b.Conv(d, "project", {.out_c = 16}), s, "join")});
}

TEST(RowStrips, AChainEndingInAJoinOfAnEarlierNodesOutput) {
  // The stem's 20 x 14 x 16 = 4,480-byte output (over a quarter of 16 KiB) is read by the
  // depthwise and by the join: a chain through the depthwise and project to the join computes
  // the join's rows of it anyway, so its strips slice the stem's rows from their own, and none
  // of the three intermediates goes through DRAM. Its pairs split by default though two have
  // windowed producers. Split as pairs, the stem's pair cannot stand alone (the join would read
  // an output no longer there): it is left whole.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph whole = StemAndResidualBlock();
  const std::vector<RowStripPair> pairs = RowStripPairs(config, whole);
  ASSERT_EQ(pairs.size(), 3u);
  for (const RowStripPair& pair : pairs) EXPECT_TRUE(pair.by_default) << pair.consumer;
  ir::Graph strips = whole.Clone();
  StatusOr<std::vector<RowStripGroup>> split = SplitRowStrips(config, strips);
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u);
  EXPECT_EQ((*split)[0].name(), "stem+depthwise+project+join");
  EXPECT_EQ(strips.FindTensor("stem"), nullptr);
  ExpectSameBytes(whole, strips, {1u, 2u, 3u});
  ir::Graph paired = whole.Clone();
  split = SplitRowStrips(config, paired, {}, {.chains = false});
  ASSERT_TRUE(split.ok()) << split.status().message();
  for (const RowStripGroup& g : *split) EXPECT_NE(g.producer(), "stem") << g.name();
  ExpectSameBytes(whole, paired, {1u, 2u});
  CompileOptions on, off;
  on.row_strips = CompileOptions::RowStrips::kOn;
  off.row_strips = CompileOptions::RowStrips::kOff;
  const CompiledModel m = ExpectBitExact(whole, config, 2, on);
  StatusOr<CompiledModel> plain = CompileModel(config, whole, off);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_LT(m.cost.dram_bytes(), plain->cost.dram_bytes());
  // With kept halos both readers of a stem strip join the rows they keep of the strip before to
  // its own rows: two concatenations of one value, which is placed in one and copied into the
  // other, so neither runs on the control core.
  on.keep_halos = true;
  const CompiledModel kept = ExpectBitExact(whole, config, 2, on);
  for (const ModelLayer& l : kept.layers) EXPECT_FALSE(l.on_cpu) << l.name;
}

TEST(RowStrips, KeepMobilenetV2sLargestExpansionOffDram) {
  const WholeAndChosen m = CompileWholeAndChosen("mobilenet_v2");
  const StatusOr<CompiledModel>& off = m.whole;
  const StatusOr<CompiledModel>& on = m.chosen;  // chooses the strips
  ASSERT_TRUE(off.ok() && on.ok());
  EXPECT_FALSE(on->row_strip_groups.empty());
  // features.2's 112x112x96 expansion (1.2 MB) went out and back: 2.4 MB less traffic.
  EXPECT_LT(on->cost.dram_bytes() + 2'000'000, off->cost.dram_bytes());
  EXPECT_LT(on->cost.cycles, off->cost.cycles);
}

// regnet's first block: x (20 x 14 x 8) -> 1x1 `a` to 48 -> 3x3 depthwise -> squeeze-and-
// excitation (global pool, 1x1 `fc`, the product `scale`) -> 1x1 `c` to 32, added to the 1x1
// projection `proj` of x.
ir::Graph ProjectedSqueezeExcitationBlock() {
  QuantGraphBuilder b("regnet_block", 13);
  ir::Tensor* x = b.Input("x", 20, 14, 8);
  ir::Tensor* t = b.Conv(x, "a", {.out_c = 48, .activation = "relu"});
  t = b.Conv(t, "b", {.out_c = 48, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}, .group = 48});
  ir::Tensor* pooled = b.Conv(b.GlobalAvgPool(t, "pool"), "fc", {.out_c = 48});
  t = b.Conv(b.Mul(t, pooled, "scale"), "c", {.out_c = 32});
  return b.Finish({b.Add(b.Conv(x, "proj", {.out_c = 32}), t, "join", /*relu=*/true)});
}

TEST(RowStrips, AJoinsBranchThatAnotherChainSplitsIsThatChains) {
  // `c` is both the join's branch (a 1x1 whose output only the join reads) and the consumer of
  // the pair scale -> c: the chain scale -> c splits it; the chain proj -> join slices its
  // output. Both took it, and splitting the second read the node the first had erased.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  const ir::Graph whole = ProjectedSqueezeExcitationBlock();
  for (const bool keep_halos : {false, true}) {
    SCOPED_TRACE(keep_halos ? "kept halos" : "recomputed halos");
    ir::Graph strips = whole.Clone();
    StatusOr<std::vector<RowStripGroup>> split =
        SplitRowStrips(config, strips, {}, {.every_pair = true, .keep_halos = keep_halos});
    ASSERT_TRUE(split.ok()) << split.status().message();
    std::set<std::string> names;
    std::string listed;
    for (const RowStripGroup& g : *split) names.insert(g.name()), listed += g.name() + "; ";
    EXPECT_TRUE(names.contains("scale+c")) << listed;
    EXPECT_TRUE(names.contains("proj+join")) << listed;
    ExpectSameBytes(whole, strips, {1u, 2u});
  }
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  ExpectBitExact(whole, config, 2, on);
}

// x (56 x 56 x 40) -> three inverted residuals with squeeze-and-excitation (lraspp's blocks):
// 1x1 expansion to 120 (376 KB) -> 3x3 depthwise -> global pool -> 1x1 -> the product -> 1x1
// projection -> added to the block's input.
ir::Graph SqueezeExcitationBlocks() {
  QuantGraphBuilder b("crowd", 3);
  ir::Tensor* x = b.Input("x", 56, 56, 40);
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i);
    ir::Tensor* t = b.Conv(x, "expand" + n, {.out_c = 120, .activation = "relu6"});
    t = b.Conv(t, "dw" + n, {.out_c = 120, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}, .group = 120});
    ir::Tensor* pooled = b.GlobalAvgPool(t, "pool" + n);
    pooled = b.Conv(pooled, "fc" + n, {.out_c = 120, .activation = "relu"});
    t = b.Conv(b.Mul(t, pooled, "scale" + n), "project" + n, {.out_c = 40});
    x = b.Add(t, x, "join" + n);
  }
  return b.Finish({x});
}

TEST(RowStrips, OnALargerSramTheSplitsOfSmallerOnesAreTriedToo) {
  // At 2 MiB no intermediate exceeds a quarter of the SRAM, so no pair is even listed; whole,
  // the expansions and depthwise outputs crowd the SRAM and go through DRAM. kAuto also tries
  // the splits 1 MiB would make (kStripLimitsSramBytes) and keeps one: 141,896 -> 136,179
  // cycles, 733,672 -> 483,048 bytes of DRAM traffic when this was written.
  EXPECT_TRUE(SmallerSplitSrams(Config({})).empty());  // 1 MiB
  EXPECT_EQ(SmallerSplitSrams(Config({"sram.size_bytes=4194304"})),
            (std::vector<uint64_t>{2 << 20, 1 << 20}));
  EXPECT_EQ(SmallerSplitSrams(Config({"sram.size_bytes=3145728"})),
            (std::vector<uint64_t>{1572864}));
  const spec::NpuConfig config = Config({"sram.size_bytes=2097152"});
  const ir::Graph whole = SqueezeExcitationBlocks();
  EXPECT_TRUE(RowStripPairs(config, whole).empty());
  const CompiledModel chosen = ExpectBitExact(whole, config, 1);
  ASSERT_FALSE(chosen.row_strip_groups.empty());
  CompileOptions off;
  off.row_strips = CompileOptions::RowStrips::kOff;
  StatusOr<CompiledModel> plain = CompileModel(config, whole, off);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_LT(chosen.cost.cycles, plain->cost.cycles);
  EXPECT_LT(chosen.cost.dram_bytes() * 5, plain->cost.dram_bytes() * 4);
}

TEST(RowStrips, AVariantMovingMuchLessDramWinsByAFewCycles) {
  // The trade of two compiles: the faster wins, unless the slower moves less DRAM and is slower by
  // at most a tenth of the share it saves, and by at most 3 % (inception_v3's stem as chains of
  // strips: 0.73 % more cycles, 18 % less DRAM; resnet18's conv1 and pool in strips once took
  // 0.09 % more cycles for 5.4 % less DRAM; densenet121's dense block 1 beside its
  // concatenation 1.7 % for 25 %, and 2.5 % for 25 % beside a faster kept-halo variant).
  auto cost = [](uint64_t cycles, uint64_t dram) {
    CostEstimate c;
    c.cycles = cycles;
    c.dram_read_bytes = dram;
    return c;
  };
  const CostEstimate fast = cost(1'000'000, 10'000'000);
  EXPECT_TRUE(Preferred(cost(1'002'000, 9'400'000), fast));  // +0.2 %, -6 %
  EXPECT_FALSE(Preferred(fast, cost(1'002'000, 9'400'000)));
  EXPECT_FALSE(Preferred(cost(1'006'000, 9'500'000), fast));   // +0.6 % for -5 %: too slow
  EXPECT_TRUE(Preferred(cost(1'004'000, 9'500'000), fast));    // +0.4 % for -5 %
  EXPECT_TRUE(Preferred(cost(1'007'300, 8'200'000), fast));    // +0.73 % for -18 %
  EXPECT_TRUE(Preferred(cost(1'017'000, 7'500'000), fast));    // +1.7 % for -25 %
  EXPECT_TRUE(Preferred(cost(1'025'000, 7'500'000), fast));    // +2.5 % for -25 %
  EXPECT_FALSE(Preferred(cost(1'031'000, 5'000'000), fast));   // +3.1 %: too slow whatever saved
  EXPECT_TRUE(Preferred(cost(1'000'100, 9'960'000), fast));    // +0.01 % for -0.4 %
  EXPECT_FALSE(Preferred(cost(1'000'100, 10'000'000), fast));  // slower, the same DRAM
  EXPECT_TRUE(Preferred(cost(994'000, 10'500'000), fast));     // 0.6 % faster, 5 % more DRAM
  EXPECT_FALSE(Preferred(cost(999'000, 10'500'000), fast));    // 0.1 % faster, 5 % more DRAM
  EXPECT_TRUE(Preferred(fast, fast));                          // a tie: the one asked about
}

}  // namespace
}  // namespace npu::compiler::testing
