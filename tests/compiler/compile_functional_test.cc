// The compiled program, executed instruction by instruction, equals the integer reference bit
// for bit: many shapes, both dataflows, small and large arrays, and an SRAM so small that every
// operand is tiled. Each case also runs in random token-legal orders, which catches a missing
// dependency, and passes the token protocol checker.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>

#include "compiler/compile.h"
#include "compiler/reference/reference_conv.h"
#include "compiler/schedule/token_check.h"
#include "compiler/sim/functional_executor.h"
#include "compiler/tiling/tile_grid.h"
#include "hw/spec/config.h"
#include "workloads/single_layer.h"
#include "workloads/synthetic_conv.h"

namespace npu::compiler {
namespace {

using workloads::Activation;
using workloads::SyntheticConvSpec;

spec::NpuConfig Config(const std::vector<std::string>& overrides) {
  StatusOr<spec::NpuConfig> config = spec::ResolveConfig("", overrides);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return *config;
}

// A 4x4 array whose SRAM is a few hundred bytes: spatial, oc and ic tiling are all forced.
spec::NpuConfig TinyConfig(uint32_t sram_bytes) {
  return Config({"mac.rows=4", "mac.cols=4", "mac.acc_buffer_bytes=512", "sram.banks=1",
                 "sram.bank_width_bytes=16", "sram.size_bytes=" + std::to_string(sram_bytes)});
}

// Runs the program in one order (seed 0: stream order) and compares with `expected`.
void ExpectRunMatches(const spec::NpuConfig& config, const CompiledLayer& compiled,
                      const std::vector<int8_t>& input, const std::vector<int8_t>& expected,
                      uint32_t seed) {
  sim::FunctionalExecutor executor(config);
  ASSERT_TRUE(executor.Load(compiled.program).ok());
  ASSERT_TRUE(executor.WriteInput(input).ok());
  const Status run = executor.Run(seed);
  ASSERT_TRUE(run.ok()) << run.message();
  const std::vector<int8_t> actual = executor.ReadOutput();
  ASSERT_EQ(actual.size(), expected.size());
  size_t mismatches = 0, first = actual.size();
  for (size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] != expected[i] && mismatches++ == 0) first = i;
  }
  EXPECT_EQ(mismatches, 0u) << "order seed " << seed << ": first mismatch at " << first << " with "
                            << ToString(compiled.tiling);
}

// Compiles, runs in stream order and in `random_orders` random legal orders, and compares
// with the reference. Returns the compiled layer for further checks.
CompiledLayer ExpectMatchesReference(const spec::NpuConfig& config, const ConvLayer& layer,
                                     const std::vector<int8_t>& input, int random_orders = 2,
                                     const CompileOptions& options = {}) {
  StatusOr<CompiledLayer> compiled = CompileConvLayerDetailed(config, layer, options);
  EXPECT_TRUE(compiled.ok()) << compiled.status().message();
  if (!compiled.ok()) return {};
  EXPECT_TRUE(CheckTokenProtocol(compiled->instructions).ok());
  StatusOr<std::vector<int8_t>> expected = ReferenceConv(layer, input);
  EXPECT_TRUE(expected.ok()) << expected.status().message();
  if (!expected.ok()) return {};
  for (int order = 0; order <= random_orders; ++order) {
    ExpectRunMatches(config, *compiled, input, *expected, static_cast<uint32_t>(order * 7919));
  }
  return *std::move(compiled);
}

CompiledLayer ExpectSpecMatches(const spec::NpuConfig& config, const SyntheticConvSpec& spec,
                                int random_orders = 2) {
  StatusOr<ConvLayer> layer = workloads::MakeSyntheticConv(spec);
  EXPECT_TRUE(layer.ok()) << layer.status().message();
  if (!layer.ok()) return {};
  return ExpectMatchesReference(config, *layer,
                                workloads::MakeInputTensor(layer->InputBytes(), spec.seed + 99),
                                random_orders);
}

SyntheticConvSpec Spec(uint32_t h, uint32_t w, uint32_t c, uint32_t n, uint32_t k,
                       uint32_t stride = 1, uint32_t dilation = 1) {
  SyntheticConvSpec s;
  s.in_h = h, s.in_w = w, s.in_c = c, s.out_c = n;
  s.kernel_h = s.kernel_w = k;
  s.stride_h = s.stride_w = stride;
  s.dilation_h = s.dilation_w = dilation;
  workloads::SetSamePadding(s);
  s.input_zero_point = -7;
  s.output_zero_point = 5;
  s.activation = Activation::kRelu;
  s.seed = h * 1000 + w * 100 + c * 10 + n + k;
  return s;
}

TEST(CompileFunctional, BuiltInWorkloads) {
  const spec::NpuConfig config = spec::DefaultConfig();
  for (const std::string& name : workloads::SingleLayerWorkloadNames()) {
    SCOPED_TRACE(name);
    StatusOr<workloads::Workload> w = workloads::MakeSingleLayerWorkload(name);
    ASSERT_TRUE(w.ok());
    ExpectMatchesReference(config, w->layer, w->input, 1);
  }
}

TEST(CompileFunctional, OddSizes) {
  const spec::NpuConfig config = spec::DefaultConfig();
  ExpectSpecMatches(config, Spec(7, 5, 3, 33, 3));
  ExpectSpecMatches(config, Spec(13, 11, 17, 5, 3));
  SyntheticConvSpec asym = Spec(9, 6, 5, 7, 1);
  asym.kernel_h = 3, asym.kernel_w = 2, asym.pad_top = 2, asym.pad_left = 0, asym.pad_bottom = 0,
  asym.pad_right = 1;
  ExpectSpecMatches(config, asym);
}

TEST(CompileFunctional, StrideDilationAndKernelSizes) {
  const spec::NpuConfig config = spec::DefaultConfig();
  ExpectSpecMatches(config, Spec(15, 14, 8, 16, 3, 2));
  ExpectSpecMatches(config, Spec(16, 13, 6, 9, 3, 1, 2));
  ExpectSpecMatches(config, Spec(10, 10, 24, 40, 1));
  ExpectSpecMatches(config, Spec(12, 9, 4, 12, 5));
  ExpectSpecMatches(config, Spec(17, 15, 3, 8, 7, 2));
  ExpectSpecMatches(config, Spec(11, 12, 5, 6, 3, 3, 2));
}

TEST(CompileFunctional, FullyConnectedAndActivations) {
  const spec::NpuConfig config = spec::DefaultConfig();
  SyntheticConvSpec fc = Spec(1, 1, 300, 70, 1);
  fc.fully_connected = true;
  fc.activation = Activation::kNone;
  ExpectSpecMatches(config, fc);
  SyntheticConvSpec relu6 = Spec(6, 6, 8, 8, 3);
  relu6.activation = Activation::kRelu6;
  relu6.input_zero_point = 100;
  ExpectSpecMatches(config, relu6);
}

TEST(CompileFunctional, OutputStationary) {
  const spec::NpuConfig config = Config({"mac.dataflow=OUTPUT_STATIONARY"});
  ExpectSpecMatches(config, Spec(14, 9, 20, 40, 3));
  ExpectSpecMatches(config, Spec(9, 9, 3, 33, 5, 2));
}

TEST(CompileFunctional, SmallAndLargeArrays) {
  const spec::NpuConfig small = Config({"mac.rows=4", "mac.cols=4", "sram.size_bytes=16384"});
  ExpectSpecMatches(small, Spec(10, 7, 9, 13, 3));
  const spec::NpuConfig large = Config({"mac.rows=64", "mac.cols=64"});
  ExpectSpecMatches(large, Spec(12, 12, 70, 130, 3));
  const spec::NpuConfig large_os =
      Config({"mac.rows=64", "mac.cols=64", "mac.dataflow=OUTPUT_STATIONARY"});
  ExpectSpecMatches(large_os, Spec(8, 20, 16, 65, 1));
}

TEST(CompileFunctional, TinySramTilesEverything) {
  const spec::NpuConfig config = TinyConfig(512);
  const CompiledLayer c = ExpectSpecMatches(config, Spec(7, 5, 3, 33, 3), 3);
  EXPECT_LT(c.tiling.tile_oc, 33u);
  EXPECT_LT(uint64_t{c.tiling.tile_oh} * c.tiling.tile_ow, 35u);
  const CompiledLayer deep = ExpectSpecMatches(config, Spec(5, 4, 40, 6, 3), 3);
  EXPECT_LT(deep.tiling.tile_ic, 40u);
  EXPECT_LE(deep.sram.sram_bytes, 512u);
}

// A table on the convolution (ACT's use_table): the single-layer program carries it at the end
// of the parameter segment and loads it once; the reference applies it after the clamp.
TEST(CompileFunctional, ConvWithTable) {
  StatusOr<ConvLayer> layer = workloads::MakeSyntheticConv(Spec(7, 5, 3, 33, 3));
  ASSERT_TRUE(layer.ok());
  layer->table.resize(spec::kLutEntries);
  for (int k = 0; k < 256; ++k) layer->table[k] = int8_t(127 - k);  // x -> -1 - x
  const std::vector<int8_t> input = workloads::MakeInputTensor(layer->InputBytes(), 9);
  for (const spec::NpuConfig& config : {spec::DefaultConfig(), TinyConfig(640)}) {
    const CompiledLayer c = ExpectMatchesReference(config, *layer, input, 2);
    int table_loads = 0;
    for (const spec::Instruction& insn : c.instructions) {
      if (const auto* act = std::get_if<spec::ActArgs>(&insn.args)) {
        EXPECT_TRUE(act->use_table);
        EXPECT_EQ(act->table_addr, c.sram.table.base);
      }
      const auto* d = std::get_if<spec::DmaArgs>(&insn.args);
      table_loads += d != nullptr && d->sram_addr == c.sram.table.base;
    }
    EXPECT_EQ(table_loads, 1);
  }
  StatusOr<std::vector<int8_t>> plain = ReferenceConv(
      [&] {
        ConvLayer l = *layer;
        l.table.clear();
        return l;
      }(),
      input);
  StatusOr<std::vector<int8_t>> mapped = ReferenceConv(*layer, input);
  ASSERT_TRUE(plain.ok() && mapped.ok());
  for (size_t i = 0; i < plain->size(); ++i) ASSERT_EQ((*mapped)[i], -1 - (*plain)[i]);
}

// A grouped layer (CONV's groups): each output channel sums its own group's input channels. The
// synthetic layer's weights cut to a group's channels; on both dataflows and an SRAM that forces
// spatial tiles and oc tiles of whole groups (each CONV then takes its tile's groups).
TEST(CompileFunctional, GroupedConvolutions) {
  bool tiled_somewhere = false;
  for (const auto& [groups, k, stride] : {std::tuple{4u, 3u, 1u}, {3u, 3u, 2u}, {2u, 1u, 1u}}) {
    StatusOr<ConvLayer> layer = workloads::MakeSyntheticConv(Spec(11, 9, 12, 12, k, stride));
    ASSERT_TRUE(layer.ok());
    ConvLayer grouped = *layer;
    grouped.groups = groups;
    const uint64_t taps = uint64_t{k} * k, cg = 12 / groups;
    grouped.weights.clear();
    for (uint64_t row = 0; row < 12 * taps; ++row) {
      const auto from = layer->weights.begin() + row * 12;
      grouped.weights.insert(grouped.weights.end(), from, from + cg);
    }
    const std::vector<int8_t> input = workloads::MakeInputTensor(grouped.InputBytes(), groups);
    for (const spec::NpuConfig& config :
         {spec::DefaultConfig(), Config({"mac.dataflow=OUTPUT_STATIONARY"}), TinyConfig(1024)}) {
      SCOPED_TRACE(::testing::Message() << groups << " groups, " << config.mac().rows() << " rows");
      const CompiledLayer c = ExpectMatchesReference(config, grouped, input, 2);
      bool tiled = false;
      int convs = 0;
      for (const spec::Instruction& insn : c.instructions) {
        const auto* conv = std::get_if<spec::ConvArgs>(&insn.args);
        if (conv == nullptr) continue;
        ++convs;  // an oc tile of whole groups, each of cg input and output channels
        EXPECT_EQ(conv->out_c, conv->groups * cg);
        EXPECT_EQ(conv->in_c, conv->groups * cg);
        tiled |= conv->groups < groups;
      }
      EXPECT_GT(convs, 0);
      tiled_somewhere |= tiled;
    }
  }
  EXPECT_TRUE(tiled_somewhere) << "the tiny SRAM tiles the output channels";
  ConvLayer bad = *workloads::MakeSyntheticConv(Spec(5, 5, 12, 12, 1));
  bad.groups = 5;  // does not divide 12
  EXPECT_FALSE(CheckLayer(bad).ok());
}

// The synthetic layer made depthwise: channel n keeps its own input channel's weights.
ConvLayer Depthwise(const SyntheticConvSpec& spec) {
  StatusOr<ConvLayer> layer = workloads::MakeSyntheticConv(spec);
  EXPECT_TRUE(layer.ok());
  ConvLayer dw = *layer;
  dw.depthwise = true;
  dw.weights.clear();
  const uint64_t taps = uint64_t{spec.kernel_h} * spec.kernel_w;
  for (uint64_t n = 0; n < spec.out_c; ++n) {
    for (uint64_t tap = 0; tap < taps; ++tap) {
      dw.weights.push_back(layer->weights[(n * taps + tap) * spec.in_c + n]);
    }
  }
  return dw;
}

uint32_t DwConvs(const CompiledLayer& c) {
  return static_cast<uint32_t>(std::count_if(
      c.instructions.begin(), c.instructions.end(),
      [](const spec::Instruction& i) { return std::holds_alternative<spec::DwConvArgs>(i.args); }));
}

// Depthwise layers on the vector unit's depthwise datapath (DWCONV: CONV and ACT in one pass):
// chosen by the search where the config has it and it is not slower, forced with fewer taps than
// the window (several passes) and on an SRAM that tiles everything; the same bytes as the
// reference in any token-legal order. The datapath a config lacks, or a layer DWCONV cannot run,
// is refused by name.
TEST(CompileFunctional, DepthwiseOnTheVectorUnitsDatapath) {
  for (const auto& [k, stride, dilation] : {std::tuple{3u, 1u, 1u}, {3u, 2u, 1u}, {5u, 1u, 2u}}) {
    const ConvLayer dw = Depthwise(Spec(11, 9, 12, 12, k, stride, dilation));
    const std::vector<int8_t> input = workloads::MakeInputTensor(dw.InputBytes(), k + stride);
    SCOPED_TRACE(::testing::Message() << k << "x" << k << " stride " << stride);
    const CompiledLayer chosen =
        ExpectMatchesReference(Config({"act.depthwise_taps=9"}), dw, input);
    EXPECT_TRUE(k != 3 || chosen.tiling.on_vector) << ToString(chosen.tiling);
    EXPECT_EQ(DwConvs(chosen) > 0, chosen.tiling.on_vector);
    ConvTiling forced{4, dw.OutW(), 12, 1, LoopOrder::kSpatialOuter};
    forced.on_vector = true;
    const CompiledLayer passes =
        ExpectMatchesReference(Config({"act.depthwise_taps=2"}), dw, input, 2, {forced});
    EXPECT_GT(DwConvs(passes), 0u);
    spec::NpuConfig tiny = TinyConfig(2048);
    tiny.mutable_act()->set_depthwise_taps(9);
    forced = {2, 3, 4, 1, LoopOrder::kChannelOuter};
    forced.on_vector = true;
    EXPECT_GT(DwConvs(ExpectMatchesReference(tiny, dw, input, 2, {forced})), 0u);
  }
  // A fused table (HardSwish, SiLU...): each DWCONV applies it (use_table), read right after its
  // records in the parameter slot, so no LUT follows. Three oc tiles of 4: the first two LOAD
  // the table after their records, the last with them (the table follows the records in DRAM).
  ConvLayer with_table = Depthwise(Spec(11, 9, 12, 12, 3));
  with_table.table.resize(spec::kLutEntries);
  for (int k = 0; k < 256; ++k) with_table.table[k] = int8_t((k * 7) % 256 - 128);
  const std::vector<int8_t> tabled_input = workloads::MakeInputTensor(with_table.InputBytes(), 3);
  ConvTiling oc_tiles{4, 9, 4, 1, LoopOrder::kChannelOuter};
  oc_tiles.on_vector = true;
  for (const CompiledLayer& tabled :
       {ExpectMatchesReference(Config({"act.depthwise_taps=9"}), with_table, tabled_input),
        ExpectMatchesReference(Config({"act.depthwise_taps=9"}), with_table, tabled_input, 1,
                               {oc_tiles})}) {
    ASSERT_TRUE(tabled.tiling.on_vector) << ToString(tabled.tiling);
    EXPECT_EQ(std::count_if(tabled.instructions.begin(), tabled.instructions.end(),
                            [](const spec::Instruction& i) {
                              return std::holds_alternative<spec::LutArgs>(i.args);
                            }),
              0);
    for (const spec::Instruction& i : tabled.instructions) {
      if (const auto* d = std::get_if<spec::DwConvArgs>(&i.args)) {
        EXPECT_TRUE(d->use_table);
      }
    }
    EXPECT_GT(DwConvs(tabled), 0u);
  }
  const ConvLayer dw = Depthwise(Spec(11, 9, 12, 12, 3));
  ConvTiling forced{4, 9, 12, 1, LoopOrder::kSpatialOuter};
  forced.on_vector = true;
  StatusOr<CompiledLayer> refused =
      CompileConvLayerDetailed(Config({"act.depthwise_taps=0"}), dw, {forced});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("no depthwise datapath"), std::string::npos)
      << refused.status().message();
  StatusOr<ConvLayer> dense = workloads::MakeSyntheticConv(Spec(11, 9, 12, 12, 3));
  refused = CompileConvLayerDetailed(Config({"act.depthwise_taps=9"}), *dense, {forced});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("only an int8 depthwise layer"), std::string::npos)
      << refused.status().message();
}

// `base` with each loop order and each choice of resident inputs, weights and parameters.
std::vector<ConvTiling> EveryOrderAndResidency(ConvTiling base) {
  std::vector<ConvTiling> tilings;
  for (const LoopOrder order : {LoopOrder::kSpatialOuter, LoopOrder::kChannelOuter}) {
    for (int mask = 0; mask < 8; ++mask) {
      base.order = order;
      base.inputs_resident = mask & 1;
      base.weights_resident = mask & 2;
      base.params_resident = mask & 4;
      tilings.push_back(base);
    }
  }
  return tilings;
}

TEST(CompileFunctional, ForcedTilingsWithEveryLoopOrderAndResidency) {
  const spec::NpuConfig config = spec::DefaultConfig();
  StatusOr<ConvLayer> layer = workloads::MakeSyntheticConv(Spec(9, 8, 10, 12, 3));
  ASSERT_TRUE(layer.ok());
  const std::vector<int8_t> input = workloads::MakeInputTensor(layer->InputBytes(), 5);
  for (const ConvTiling& t : EveryOrderAndResidency({4, 3, 5, 3})) {
    SCOPED_TRACE(ToString(t));
    ExpectMatchesReference(config, *layer, input, 1, CompileOptions{t});
  }
}

// The bytes a program's LOADs move.
uint64_t LoadedBytes(const std::vector<spec::Instruction>& insns) {
  uint64_t bytes = 0;
  for (const spec::Instruction& insn : insns) {
    if (insn.opcode != spec::Opcode::kLoad) continue;
    const auto& d = std::get<spec::DmaArgs>(insn.args);
    bytes += uint64_t{d.run_bytes} * d.n1 * d.n2;
  }
  return bytes;
}

// A strided 1x1 convolution reading its input from DRAM (a bottleneck's downsampling) LOADs only
// the pixels its windows read (ConvTiling::subsampled_input): exact with every loop order and
// residency, odd sizes, unequal strides and a tiny SRAM; the search takes it for a downsampling
// layer, whose input it then reads a quarter of.
TEST(CompileFunctional, StridedOneByOneConvolutionsLoadASubsampledInput) {
  const spec::NpuConfig config = spec::DefaultConfig();
  SyntheticConvSpec unequal = Spec(9, 11, 6, 10, 1, 3);
  unequal.stride_w = 2;
  for (const SyntheticConvSpec& spec :
       {Spec(9, 8, 10, 12, 1, 2), Spec(7, 13, 5, 7, 1, 3), unequal}) {
    StatusOr<ConvLayer> layer = workloads::MakeSyntheticConv(spec);
    ASSERT_TRUE(layer.ok());
    ASSERT_TRUE(CanSubsampleInput(*layer));
    const std::vector<int8_t> input = workloads::MakeInputTensor(layer->InputBytes(), 5);
    ConvTiling subsampled{2, 3, 5, 4};
    subsampled.subsampled_input = true;
    for (const ConvTiling& t : EveryOrderAndResidency(subsampled)) {
      SCOPED_TRACE(ToString(t));
      ExpectMatchesReference(config, *layer, input, 1, CompileOptions{t});
    }
    SCOPED_TRACE("tiny SRAM");
    StatusOr<ConvLayer> small = workloads::MakeSyntheticConv(spec);
    ASSERT_TRUE(small.ok());
    ExpectMatchesReference(TinyConfig(512), *small, input);
  }
  // A downsampling: 28x28x64 -> 14x14x128, stride 2.
  StatusOr<ConvLayer> down = workloads::MakeSyntheticConv(Spec(28, 28, 64, 128, 1, 2));
  ASSERT_TRUE(down.ok());
  const std::vector<int8_t> input = workloads::MakeInputTensor(down->InputBytes(), 7);
  const CompiledLayer chosen = ExpectMatchesReference(config, *down, input, 1);
  EXPECT_TRUE(chosen.tiling.subsampled_input) << ToString(chosen.tiling);
  ConvTiling whole = chosen.tiling;
  whole.subsampled_input = false;
  const CompiledLayer plain =
      ExpectMatchesReference(config, *down, input, 1, CompileOptions{whole});
  // The same tiles but the input's: the whole rows and columns between the pixels read (3 of
  // every 4 rows for two output rows a tile, all 27 columns) against 14 x 14 pixels.
  const uint64_t saved = LoadedBytes(plain.instructions) - LoadedBytes(chosen.instructions);
  EXPECT_GT(saved, 2 * 14 * 14 * 64) << ToString(chosen.tiling);
  EXPECT_EQ(chosen.cost.dram_write_bytes, plain.cost.dram_write_bytes);
  // A padded or unstrided 1x1, or a 3x3, may not.
  SyntheticConvSpec padded = Spec(9, 8, 10, 12, 1, 2);
  padded.pad_top = 1;
  for (const SyntheticConvSpec& spec :
       {padded, Spec(9, 8, 10, 12, 1, 1), Spec(9, 8, 10, 12, 3, 2)}) {
    StatusOr<ConvLayer> layer = workloads::MakeSyntheticConv(spec);
    ASSERT_TRUE(layer.ok());
    EXPECT_FALSE(CanSubsampleInput(*layer));
    ConvTiling t{2, 3, 5, 4};
    t.subsampled_input = true;
    EXPECT_FALSE(CompileConvLayerDetailed(config, *layer, CompileOptions{t}).ok());
  }
}

// Random shapes, strides, dilations, paddings, zero points and activations on random small
// configs (both dataflows, 4..16-wide arrays, SRAM from a few hundred bytes up).
TEST(CompileFunctional, RandomLayersAndConfigs) {
  std::mt19937 rng(2024);
  auto pick = [&](uint32_t lo, uint32_t hi) { return lo + rng() % (hi - lo + 1); };
  int compiled = 0;
  for (int i = 0; i < 40; ++i) {
    SyntheticConvSpec s;
    s.kernel_h = pick(1, 5), s.kernel_w = pick(1, 5);
    s.stride_h = pick(1, 3), s.stride_w = pick(1, 3);
    s.dilation_h = pick(1, 2), s.dilation_w = pick(1, 2);
    s.in_h = pick((s.kernel_h - 1) * s.dilation_h + 1, 14);
    s.in_w = pick((s.kernel_w - 1) * s.dilation_w + 1, 14);
    s.in_c = pick(1, 40), s.out_c = pick(1, 40);
    s.pad_top = pick(0, (s.kernel_h - 1) * s.dilation_h);
    s.pad_bottom = pick(0, (s.kernel_h - 1) * s.dilation_h);
    s.pad_left = pick(0, (s.kernel_w - 1) * s.dilation_w);
    s.pad_right = pick(0, (s.kernel_w - 1) * s.dilation_w);
    s.input_zero_point = static_cast<int32_t>(pick(0, 255)) - 128;
    s.output_zero_point = static_cast<int32_t>(pick(0, 100)) - 50;
    s.activation = static_cast<Activation>(pick(0, 2));
    s.seed = 100 + i;
    const uint32_t side = 4u << pick(0, 2);
    const uint32_t sram = (2 * (side * side + 2 * side + 12 * side) + 16 * pick(0, 200)) / 16 * 16;
    const spec::NpuConfig config = Config(
        {"mac.rows=" + std::to_string(side), "mac.cols=" + std::to_string(side),
         "mac.acc_buffer_bytes=" + std::to_string(8 * side * side * pick(1, 4)),
         std::string("mac.dataflow=") + (pick(0, 1) ? "OUTPUT_STATIONARY" : "WEIGHT_STATIONARY"),
         "sram.banks=1", "sram.bank_width_bytes=16", "sram.size_bytes=" + std::to_string(sram),
         "dma.load_channels=" + std::to_string(pick(1, 3))});
    SCOPED_TRACE(::testing::Message() << "case " << i << " sram " << sram << " array " << side);
    StatusOr<ConvLayer> layer = workloads::MakeSyntheticConv(s);
    ASSERT_TRUE(layer.ok()) << layer.status().message();
    if (!CompileConvLayer(config, *layer).ok()) continue;  // a tile may not fit a tiny SRAM
    ++compiled;
    ExpectMatchesReference(config, *layer, workloads::MakeInputTensor(layer->InputBytes(), s.seed),
                           1);
  }
  EXPECT_GT(compiled, 30);
}

}  // namespace
}  // namespace npu::compiler
