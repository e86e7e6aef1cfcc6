// Tile geometry, buffer plans, the slot rules, and the tiler's limits and errors.
#include <gtest/gtest.h>

#include "compiler/schedule/step_plan.h"
#include "compiler/tiling/sram_plan.h"
#include "compiler/tiling/survey_memo.h"
#include "compiler/tiling/tile_grid.h"
#include "compiler/tiling/tiling_estimate.h"
#include "compiler/tiling/tiling_search.h"
#include "hw/spec/config.h"
#include "workloads/synthetic_conv.h"

namespace npu::compiler {
namespace {

spec::NpuConfig Config(const std::vector<std::string>& overrides) {
  StatusOr<spec::NpuConfig> config = spec::ResolveConfig("", overrides);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return *config;
}

ConvLayer Layer(uint32_t h, uint32_t w, uint32_t c, uint32_t n, uint32_t k, uint32_t dilation = 1) {
  workloads::SyntheticConvSpec s;
  s.name = "tiled";
  s.in_h = h, s.in_w = w, s.in_c = c, s.out_c = n, s.kernel_h = s.kernel_w = k;
  s.dilation_h = s.dilation_w = dilation;
  workloads::SetSamePadding(s);
  StatusOr<ConvLayer> layer = workloads::MakeSyntheticConv(s);
  EXPECT_TRUE(layer.ok()) << layer.status().message();
  return *layer;
}

TEST(TileGrid, WindowsClipToTheTensorAndKeepTheFrontPadding) {
  // 3x3 kernel, pad 1, stride 1 over 10 rows; output tiles of 4 rows.
  const InputWindow first = WindowFor({0, 4}, 10, 1, 1, 3, 1);
  EXPECT_EQ(first.begin, 0u);
  EXPECT_EQ(first.size, 5u);  // rows -1..4, clipped to 0..4
  EXPECT_EQ(first.pad_before, 1u);
  const InputWindow middle = WindowFor({4, 4}, 10, 1, 1, 3, 1);
  EXPECT_EQ(middle.begin, 3u);
  EXPECT_EQ(middle.size, 6u);  // halo of one row each side
  EXPECT_EQ(middle.pad_before, 0u);
  const InputWindow last = WindowFor({8, 2}, 10, 1, 1, 3, 1);
  EXPECT_EQ(last.begin, 7u);
  EXPECT_EQ(last.size, 3u);  // rows 7..10, clipped to 7..9
  const InputWindow strided = WindowFor({2, 3}, 20, 2, 2, 3, 2);
  EXPECT_EQ(strided.begin, 2u);  // 2*2 - 2
  EXPECT_EQ(strided.size, 9u);   // up to 4*2 + 2*2 - 2 = 10
}

TEST(TileGrid, EdgeTilesAreSmaller) {
  const Axis axis{10, 4};
  EXPECT_EQ(axis.count(), 3u);
  EXPECT_EQ(axis.At(2).begin, 8u);
  EXPECT_EQ(axis.At(2).size, 2u);
  const ConvLayer l = Layer(7, 5, 3, 33, 3);
  const TileGrid g(l, ConvTiling{3, 2, 8, 2});
  EXPECT_EQ(g.spatial_count(), 3u * 3);
  EXPECT_EQ(g.oc().At(4).size, 1u);
  EXPECT_EQ(g.WeightTileBytes(4, 1), 1u * 9 * 1);
  const std::vector<uint64_t> offsets = g.WeightTileOffsets();
  EXPECT_EQ(offsets.size(), 5u * 2);
  EXPECT_EQ(offsets[1], 8u * 9 * 2);
}

TEST(TileGrid, WeightBytesAreEveryTilesBytes) {
  // Its closed form (each reduction's row times every tile's channels) against the tiles
  // summed, with uneven edge tiles, a 7x7 kernel and int4 rows (packed per row).
  ConvLayer int4 = Layer(9, 9, 21, 35, 3);
  int4.weights_int4 = true;
  for (const ConvLayer& l : {Layer(7, 5, 3, 33, 3), Layer(9, 9, 21, 35, 7), int4}) {
    for (const ConvTiling& t :
         {ConvTiling{3, 2, 8, 2}, ConvTiling{4, 4, 5, 16}, ConvTiling{2, 3, 7, 3}}) {
      const TileGrid g(l, t);
      uint64_t tiles = 0;
      for (uint32_t o = 0; o < g.oc().count(); ++o) {
        for (uint32_t r = 0; r < g.reductions(); ++r) tiles += g.WeightTileBytes(o, r);
      }
      EXPECT_EQ(g.WeightBytes(), tiles) << ToString(t);
    }
  }
}

TEST(SlotCache, DoubleBufferReusesHeldTilesAndAlternatesOtherwise) {
  SlotCache cache(2, false);
  EXPECT_TRUE(cache.Acquire(7).load);
  const SlotUse second = cache.Acquire(8);
  EXPECT_TRUE(second.load);
  EXPECT_EQ(second.slot, 1u);
  EXPECT_FALSE(cache.Acquire(7).load);  // still held in slot 0
  const SlotUse third = cache.Acquire(9);
  EXPECT_TRUE(third.load);
  EXPECT_EQ(third.slot, 1u);  // not the slot the previous step used
  SlotCache resident(3, true);
  EXPECT_TRUE(resident.Acquire(5).load);
  EXPECT_TRUE(resident.Acquire(6).load);
  EXPECT_FALSE(resident.Acquire(5).load);
}

TEST(TilingEstimate, LoadCountsMatchTheStepWalk) {
  const ConvLayer l = Layer(9, 8, 10, 12, 3);
  const spec::NpuConfig config = spec::DefaultConfig();
  for (const ConvTiling& t : CandidateTilings(config, l)) {
    const StatusOr<TilingChoice> fit = FitTiling(config, l, t);
    if (!fit.ok()) continue;
    LoadCounts walked;
    ForEachStep(TileGrid(l, t), t, fit->plan, ConsecutiveBatches(l), [&](const ConvStep& s) {
      walked.inputs += s.input.load;
      walked.weights += s.weights.load;
      walked.params += s.params.load;
    });
    const LoadCounts counted = CountLoads(TileGrid(l, t), t);
    ASSERT_EQ(walked.inputs, counted.inputs) << ToString(t);
    ASSERT_EQ(walked.weights, counted.weights) << ToString(t);
    ASSERT_EQ(walked.params, counted.params) << ToString(t);
  }
}

TEST(TilingSearch, ChoiceFitsSramAndAccumulator) {
  const std::vector<std::vector<std::string>> configs = {
      {},
      {"mac.rows=4", "mac.cols=4", "sram.size_bytes=4096", "mac.acc_buffer_bytes=1024"},
      {"mac.rows=64", "mac.cols=64", "mac.dataflow=OUTPUT_STATIONARY"}};
  for (const auto& overrides : configs) {
    const spec::NpuConfig config = Config(overrides);
    for (const ConvLayer& l : {Layer(56, 56, 64, 64, 3), Layer(7, 5, 3, 33, 3),
                               Layer(14, 14, 200, 300, 1), Layer(20, 20, 8, 16, 5, 2)}) {
      const StatusOr<TilingChoice> choice = ChooseTiling(config, l);
      ASSERT_TRUE(choice.ok()) << choice.status().message();
      EXPECT_LE(choice->plan.sram_bytes, config.sram().size_bytes()) << ToString(choice->tiling);
      EXPECT_LE(choice->plan.acc_entries * 4, config.mac().acc_buffer_bytes());
      EXPECT_TRUE(CheckTilingFields(l, choice->tiling).ok());
      const SlotBuffer* buffers[] = {&choice->plan.weights, &choice->plan.inputs,
                                     &choice->plan.params, &choice->plan.outputs};
      for (size_t i = 1; i < 4; ++i) EXPECT_LE(buffers[i - 1]->end(), buffers[i]->base);
    }
  }
}

TEST(TilingSearch, RowBandsForADepthwiseReader) {
  // mnasnet1_0's 14x14 expansions (80 -> 480 and 96 -> 576 channels, on chip on both sides): alone
  // the fastest tiles take all 14 rows per output-channel tile, so every tile writes every row
  // and a depthwise reader waits for the last; told a depthwise convolution reads the output,
  // the search takes row bands, spatial-outer (within kNearBestBanded, no more DRAM).
  const spec::NpuConfig config = Config({});
  for (const ConvLayer& l : {Layer(14, 14, 80, 480, 1), Layer(14, 14, 96, 576, 1)}) {
    SCOPED_TRACE(l.out_c);
    const TilingContext alone{0, true, true};
    TilingContext read_by_depthwise = alone;
    read_by_depthwise.output_read_by_depthwise = true;
    const StatusOr<TilingChoice> fastest = ChooseTiling(config, l, alone);
    const StatusOr<TilingChoice> banded = ChooseTiling(config, l, read_by_depthwise);
    ASSERT_TRUE(fastest.ok() && banded.ok());
    EXPECT_EQ(fastest->tiling.tile_oh, l.OutH()) << ToString(fastest->tiling);
    EXPECT_LT(banded->tiling.tile_oh, l.OutH()) << ToString(banded->tiling);
    EXPECT_EQ(banded->tiling.order, LoopOrder::kSpatialOuter);
  }
}

TEST(TilingSearch, TinySramForcesTilingOfEveryOperand) {
  const spec::NpuConfig config =
      Config({"mac.rows=4", "mac.cols=4", "mac.acc_buffer_bytes=512", "sram.banks=1",
              "sram.bank_width_bytes=16", "sram.size_bytes=512"});
  const StatusOr<TilingChoice> choice = ChooseTiling(config, Layer(7, 5, 40, 33, 3));
  ASSERT_TRUE(choice.ok()) << choice.status().message();
  EXPECT_LT(choice->tiling.tile_ic, 40u);
  EXPECT_LT(choice->tiling.tile_oc, 33u);
  EXPECT_LT(choice->tiling.tile_oh * choice->tiling.tile_ow, 35u);
}

TEST(TilingSurveyMemo, RemembersPerConfigShapeKindAndContext) {
  const spec::NpuConfig c = Config({}), small = Config({"mac.rows=16", "mac.cols=16"});
  const ConvLayer layer = Layer(14, 14, 64, 64, 3);
  ConvLayer int4 = layer;  // the same shape, its weights run at the array's int4 rate
  int4.weights_int4 = true;
  const TilingContext context{.sram_budget = 100 << 10, .output_on_chip = true};
  const auto expect_searched = [&](const spec::NpuConfig& config,
                                   const ConvLayer& l) -> TilingOutlook {
    TilingSurveyMemo memo(config);
    for (int call = 0; call < 2; ++call) {  // the second from memory
      const StatusOr<TilingOutlook> survey = memo.Survey(l, context);
      const StatusOr<TilingOutlook> direct = SurveyTilings(config, l, context);
      EXPECT_TRUE(survey.ok() && direct.ok());
      if (!survey.ok() || !direct.ok()) return {};
      EXPECT_EQ(survey->cycles, direct->cycles);
      EXPECT_EQ(survey->sram_bytes, direct->sram_bytes);
      const StatusOr<TilingChoice> choice = memo.Choose(l, context);
      const StatusOr<TilingChoice> chosen = ChooseTiling(config, l, context);
      EXPECT_TRUE(choice.ok() && chosen.ok());
      if (!choice.ok() || !chosen.ok()) return {};
      EXPECT_EQ(choice->tiling, chosen->tiling);
      EXPECT_EQ(choice->plan.sram_bytes, chosen->plan.sram_bytes);
    }
    return *TilingSurveyMemo(config).Survey(l, context);
  };
  const TilingOutlook int8_default = expect_searched(c, layer);
  EXPECT_LT(expect_searched(c, int4).cycles, int8_default.cycles);
  EXPECT_GT(expect_searched(small, layer).cycles, int8_default.cycles);
  // An error is the layer's own (its name), never remembered for another.
  ConvLayer named = layer;
  named.name = "another";
  const StatusOr<TilingChoice> refused =
      TilingSurveyMemo(c).Choose(named, {.sram_budget = 1, .output_on_chip = true});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("another"), std::string::npos);
}

TEST(TilingSearch, ImpossibleConfigNamesLayerAndBytes) {
  // Minimal SRAM for a 4x4 array: 2 x (16 + 4 + 4 + 48) = 144 bytes. A dilated 7x7 kernel
  // needs a 13x13 input window for one output pixel: 2 x (169 + 49 + 12 + 1) = 462 bytes.
  const spec::NpuConfig config =
      Config({"mac.rows=4", "mac.cols=4", "mac.acc_buffer_bytes=128", "sram.banks=1",
              "sram.bank_width_bytes=16", "sram.size_bytes=144"});
  ASSERT_EQ(spec::MinimalSramBytes(config), 144u);
  const StatusOr<TilingChoice> choice = ChooseTiling(config, Layer(20, 20, 2, 2, 7, 2));
  ASSERT_FALSE(choice.ok());
  EXPECT_EQ(choice.status().kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(choice.status().message().find("layer 'tiled'"), std::string::npos);
  EXPECT_NE(choice.status().message().find("needs 462 bytes of SRAM; the config has 144"),
            std::string::npos)
      << choice.status().message();
}

TEST(TilingSearch, ForcedTilingErrors) {
  const ConvLayer l = Layer(8, 8, 4, 4, 3);
  const spec::NpuConfig config = spec::DefaultConfig();
  const auto zero = FitTiling(config, l, ConvTiling{0, 1, 1, 1});
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.status().message().find("tile_oh = 0"), std::string::npos);
  EXPECT_FALSE(FitTiling(config, l, ConvTiling{1, 9, 1, 1}).ok());
  const spec::NpuConfig small = Config({"sram.size_bytes=4096", "sram.banks=1"});
  const auto big = FitTiling(small, Layer(40, 40, 16, 16, 3), ConvTiling{40, 40, 16, 16});
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(big.status().message().find("the config has 4096"), std::string::npos)
      << big.status().message();
}

TEST(SramPlan, HeldWeightsAndRecordsLieOutsideTheScratch) {
  // Held constants (network/held_constants.h): every weight tile and record resident, in their
  // own region (RebaseHeld), not in the scratch the layer's other buffers take (Rebase).
  const ConvLayer l = Layer(8, 8, 32, 64, 3);
  const spec::NpuConfig config = spec::DefaultConfig();
  ConvTiling t{4, 8, 32, 16, LoopOrder::kChannelOuter, false, true, true};
  const StatusOr<TilingChoice> loaded = FitTiling(config, l, t);
  t.held = HeldConstants::kLoads;
  const StatusOr<TilingChoice> held = FitTiling(config, l, t);
  ASSERT_TRUE(loaded.ok() && held.ok());
  const SramPlan& a = loaded->plan;
  SramPlan b = held->plan;
  EXPECT_EQ(b.held_bytes, b.weights.end() - b.weights.base + b.params.end() - b.params.base);
  EXPECT_EQ(b.weights.slots, DistinctWeightTiles(TileGrid(l, t)));
  EXPECT_EQ(b.sram_bytes + b.held_bytes, a.sram_bytes);
  Rebase(b, 1 << 16);
  RebaseHeld(b, 1 << 19);
  EXPECT_EQ(b.weights.base, 1u << 19);
  EXPECT_EQ(b.params.base, (1u << 19) + b.weights.slots * b.weights.slot_bytes);
  EXPECT_GE(b.inputs.base, 1u << 16);
  EXPECT_LE(b.outputs.end(), (1u << 16) + b.sram_bytes);
  // Held constants are the layer's own weights and records, every tile resident.
  t.weights_resident = false;
  const auto streamed = FitTiling(config, l, t);
  ASSERT_FALSE(streamed.ok());
  EXPECT_NE(streamed.status().message().find("held constants"), std::string::npos);
}

}  // namespace
}  // namespace npu::compiler
