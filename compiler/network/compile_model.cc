// CompileModel: the network pipeline (steps in compile_model.h).
#include "compiler/network/compile_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "compiler/codegen/program_builder.h"
#include "compiler/lower/cpu_op_desc.h"
#include "compiler/lower/lower_graph.h"
#include "compiler/network/channel_groups.h"
#include "compiler/network/concat_bands.h"
#include "compiler/network/dram_plan.h"
#include "compiler/network/group_packing.h"
#include "compiler/network/image_gemms.h"
#include "compiler/network/layer_emission.h"
#include "compiler/network/layer_interleave.h"
#include "compiler/network/model_program.h"
#include "compiler/network/on_chip_plan.h"
#include "compiler/network/pool_placement.h"
#include "compiler/network/parallel_for.h"
#include "compiler/network/row_strips.h"
#include "compiler/qinterp/check.h"
#include "compiler/schedule/dependencies.h"
#include "compiler/schedule/token_check.h"
#include "hw/spec/config.h"

namespace npu::compiler {
namespace {

// Where value `v` is: its buffer in SRAM or in the arena (relative to the data base).
TensorPlace PlaceOf(const Network& net, int v, const OnChipPlan& chip, const ModelDramPlan& dram) {
  const ActivationValue& value = net.value(v);
  const int b = value.buffer;
  const uint32_t stride = net.PixelStride(v);
  const uint64_t at = value.byte_offset;
  return chip.on_chip[b] ? TensorPlace{true, chip.sram_addr[b] + at, stride, value.channel_offset,
                                       value.element_bytes()}
                         : TensorPlace{false, dram.buffers[b] + at, stride, value.channel_offset,
                                       value.element_bytes()};
}

// Step 5 (emission) and the per-layer records that do not need the replay.
void EmitAll(CompiledModel& m, const OnChipPlan& chip, const ModelDramPlan& dram,
             const std::vector<LayerConstants>& constants) {
  const Network& net = m.network;
  uint32_t acc_phase = 0;
  for (size_t i = 0; i < net.layers.size(); ++i) {
    const NetLayer& layer = net.layers[i];
    LayerPlaces places;
    for (size_t k = 0; k < layer.inputs.size() && k < 2; ++k) {
      places.inputs[k] = PlaceOf(net, layer.inputs[k], chip, dram);
    }
    places.output = PlaceOf(net, layer.output, chip, dram);
    places.constants = dram.constants[i];
    places.scratch_base = chip.scratch_base[i];
    places.held_base = chip.held_base[i];
    const std::vector<spec::Instruction> insns =
        EmitLayer(layer, chip.schedules[i], constants[i], places, &acc_phase);
    ModelLayer l;
    l.name = layer.name;
    l.op = layer.op;
    l.shape = layer.ShapeText(net.values);
    l.tiling = chip.schedules[i].Describe();
    if (const auto* conv = std::get_if<TilingChoice>(&chip.schedules[i].choice)) {
      l.conv_tiling = conv->tiling;
    }
    l.inputs = static_cast<uint32_t>(layer.inputs.size());
    l.note = layer.on_cpu() ? "on the control core: " + layer.cpu()->reason : layer.note;
    l.fused_group = layer.fused_group;
    l.strip = layer.strip;
    l.channel_group = layer.channel_group;
    l.channel_part = layer.channel_part;
    l.on_cpu = layer.on_cpu();
    l.first_instruction = static_cast<uint32_t>(m.instructions.size());
    l.instruction_count = static_cast<uint32_t>(insns.size());
    for (uint32_t k = 0; k < insns.size(); ++k) l.instructions.push_back(l.first_instruction + k);
    l.on_chip = ResidencyOf(net, layer, chip.on_chip);
    l.macs = layer.Macs();
    const uint64_t out_rows = std::max<uint64_t>(1, net.value(layer.output).h);
    l.recomputed_macs = l.macs / out_rows * layer.recomputed_rows;
    l.int4_macs = layer.Int4Macs();
    l.fp16_macs = layer.Fp16Macs();
    l.constant_bytes = layer.ConstantBytes();
    l.scratch_bytes = chip.schedules[i].scratch_bytes;
    l.scratch_base = chip.scratch_base[i];
    l.scratch_from = uint32_t(chip.scratch_first[i]);
    l.sram_in_use = chip.sram_in_use[i];
    m.layers.push_back(std::move(l));
    m.instructions.insert(m.instructions.end(), insns.begin(), insns.end());
  }
}

// The strips' and channel groups' layers say which group they belong to (reports show each
// group), and so do the copies of their outputs placement added.
void MarkFusedGroups(const std::vector<RowStripGroup>& groups,
                     const std::vector<ChannelGroupSplit>& channel_groups, Network& net) {
  std::map<std::string, std::tuple<std::string, uint32_t, uint32_t, uint32_t>> strip_of;
  for (const RowStripGroup& g : groups) {
    for (uint32_t k = 0; k < g.strips.size(); ++k) {
      for (const RowStripGroup::Layer& l : g.strips[k]) {
        strip_of[l.name] = {g.name(), k, uint32_t(l.recomputed_rows), l.node};
      }
    }
  }
  std::map<std::string, std::pair<std::string, uint32_t>> part_of;
  for (const ChannelGroupSplit& g : channel_groups) {
    for (uint32_t k = 0; k < g.parts.size(); ++k) {
      for (const std::string& name : g.parts[k]) part_of[name] = {g.name(), k};
    }
  }
  for (size_t i = 0; i < net.layers.size(); ++i) {
    NetLayer& layer = net.layers[i];
    if (const auto it = strip_of.find(layer.name); it != strip_of.end()) {
      std::tie(layer.fused_group, layer.strip, layer.recomputed_rows, layer.group_node) =
          it->second;
    }
    if (const auto it = part_of.find(layer.name); it != part_of.end()) {
      std::tie(layer.channel_group, layer.channel_part) = it->second;
    }
    if (!layer.placement_copy) continue;
    // A copy is the group's of the layer that computed what it copies last (a copy computes
    // nothing: a kept halo's copy into the next strip's rows is the strip's that computed them).
    for (size_t j = i; j-- > 0;) {
      const NetLayer& w = net.layers[j];
      if (w.placement_copy || w.output < 0 || !net.Overlap(w.output, layer.inputs[0])) continue;
      std::tie(layer.fused_group, layer.strip) = std::tie(w.fused_group, w.strip);
      std::tie(layer.channel_group, layer.channel_part) = std::tie(w.channel_group, w.channel_part);
      break;
    }
  }
}

// Step 5b: interleave, then each layer's instructions where they ended up.
void Interleave(const spec::NpuConfig& config, CompiledModel& m) {
  std::vector<uint32_t> layer_of;
  std::vector<bool> on_cpu;
  for (uint32_t i = 0; i < m.layers.size(); ++i) {
    layer_of.insert(layer_of.end(), m.layers[i].instruction_count, i);
    on_cpu.push_back(m.layers[i].on_cpu);
  }
  if (InterleaveLayers(config, m.instructions, layer_of, on_cpu) == 0) return;
  for (ModelLayer& l : m.layers) l.instructions.clear();
  for (uint32_t k = 0; k < layer_of.size(); ++k) m.layers[layer_of[k]].instructions.push_back(k);
  for (ModelLayer& l : m.layers) {
    if (!l.instructions.empty()) l.first_instruction = l.instructions.front();
  }
}

// Step 5: the steps. Consecutive NPU layers form one run; each CPU layer is a step of its own.
void CutIntoSteps(CompiledModel& m) {
  for (ModelLayer& l : m.layers) {
    if (l.on_cpu) {
      l.step = static_cast<uint32_t>(m.steps.size());
      m.steps.emplace_back().mutable_cpu();  // described once DRAM is placed
      continue;
    }
    if (m.steps.empty() || !m.steps.back().has_npu()) {
      spec::NpuRun* run = m.steps.emplace_back().mutable_npu();
      run->set_first_instruction(l.first_instruction);
    }
    spec::NpuRun* run = m.steps.back().mutable_npu();
    // Interleaving stays within a run, but may put a later layer's instruction first.
    if (l.instruction_count > 0 && l.first_instruction < run->first_instruction()) {
      run->set_first_instruction(l.first_instruction);
    }
    run->set_instruction_count(run->instruction_count() + l.instruction_count);
    l.step = static_cast<uint32_t>(m.steps.size() - 1);
  }
}

// The instructions of one NPU run.
std::vector<spec::Instruction> RunSlice(const CompiledModel& m, const spec::NpuRun& run) {
  const auto first = m.instructions.begin() + run.first_instruction();
  return {first, first + run.instruction_count()};
}

// Tokens never cross runs (each run starts with every token at zero): each run gets its own.
void AssignRunDependencies(CompiledModel& m) {
  for (const spec::Step& step : m.steps) {
    if (!step.has_npu()) continue;
    std::vector<spec::Instruction> insns = RunSlice(m, step.npu());
    AssignDependencies(insns);
    NPU_CHECK(CheckTokenProtocol(insns).ok());
    std::copy(insns.begin(), insns.end(), m.instructions.begin() + step.npu().first_instruction());
  }
}

// The CPU ops, with their operands at their final DRAM offsets.
void DescribeCpuSteps(CompiledModel& m, const ModelDramPlan& dram,
                      const std::vector<LayerConstants>& constants, uint64_t data_base) {
  const Network& net = m.network;
  for (size_t i = 0; i < net.layers.size(); ++i) {
    if (!net.layers[i].on_cpu()) continue;
    CpuPlaces places{[&](int v) {
                       return data_base + dram.buffers[net.value(v).buffer] +
                              net.value(v).byte_offset;
                     },
                     {}};
    for (uint64_t offset : constants[i].cpu) {
      places.constants.push_back(data_base + dram.constants[i] + offset);
    }
    *m.steps[m.layers[i].step].mutable_cpu() = DescribeCpuOp(net.layers[i], net, places);
  }
}

void DescribeMemory(CompiledModel& m, const std::vector<Lifetime>& life, const OnChipPlan& chip,
                    const ModelDramPlan& dram, uint64_t data_base) {
  MemoryPlan& mem = m.memory;
  for (size_t b = 0; b < m.network.buffers.size(); ++b) {
    BufferPlacement p;
    for (const ActivationValue& v : m.network.values) {
      if (v.buffer == int(b)) {
        p.name = v.name;
        break;
      }
    }
    p.bytes = m.network.buffers[b].bytes;
    p.lifetime = life[b];
    p.on_chip = chip.on_chip[b];
    p.address = p.on_chip ? chip.sram_addr[b] : data_base + dram.buffers[b];
    mem.buffers.push_back(p);
  }
  mem.instruction_bytes = m.instructions.size() * spec::kInsnBytes;
  mem.constants_offset = data_base;
  mem.constants_bytes = dram.constants_bytes;
  mem.arena_offset = data_base + dram.arena;
  mem.arena_bytes = dram.arena_bytes;
  mem.arena_lower_bound = dram.arena_lower_bound;
  mem.sram_peak = chip.sram_peak;
  mem.prefetched = chip.prefetched;
  mem.evicted = chip.evicted;
  for (size_t r = 0; r < chip.held_regions.size(); ++r) {
    const HeldRegion& h = chip.held_regions[r];
    mem.held_constants.push_back(
        {m.network.layers[h.last].name + " (held constants)", h.bytes, {h.first, h.last}, true,
         chip.held_addr[r]});
  }
}

}  // namespace

std::vector<uint64_t> SmallerSplitSrams(const spec::NpuConfig& config) {
  std::vector<uint64_t> sizes;
  for (uint64_t bytes = config.sram().size_bytes() / 2; bytes >= kStripLimitsSramBytes;
       bytes /= 2) {
    sizes.push_back(bytes);
  }
  return sizes;
}

// kAuto's variant with strips beside the concatenations.
constexpr StripOptions kBesideConcats = {
    .every_pair = true, .keep_halos = true, .beside_concats = true};

bool Preferred(const CostEstimate& a, const CostEstimate& b) {
  const auto trades = [](const CostEstimate& x, const CostEstimate& y) {  // x over faster y
    const double saved = 1 - double(x.dram_bytes()) / double(std::max<uint64_t>(1, y.dram_bytes()));
    const double slower = double(x.cycles) / double(std::max<uint64_t>(1, y.cycles));
    return saved > 0 && slower <= std::min(1 + kDramTradeRate * saved, kMaxDramTradeCycles);
  };
  if (a.cycles <= b.cycles) return !trades(b, a);
  return trades(a, b);
}

StatusOr<CompiledModel> CompileModel(const spec::NpuConfig& config, const ir::Graph& quantized,
                                     const CompileOptions& options) {
  // A graph with fused layer groups: its row strips' and its channel groups'.
  struct Fused {
    ir::Graph graph;
    std::vector<RowStripGroup> strips;
    std::vector<ChannelGroupSplit> channels;
    bool kept_halos = false;      // StripOptions::keep_halos
    bool beside_concats = false;  // StripOptions::beside_concats
    bool empty() const { return strips.empty() && channels.empty(); }
  };
  // 1. Validate, lower.
  NPU_TRY(spec::Validate(config));
  NPU_TRY(qinterp::CheckQuantizedGraph(quantized).WithContext("the quantised graph"));
  // `fused`, or `quantized` itself if it has no groups.
  const auto compile = [&](const Fused& fused) -> StatusOr<CompiledModel> {
    NPU_ASSIGN_OR_RETURN(Network network,
                         LowerGraph(fused.empty() ? quantized : fused.graph,
                                    {options.cpu_fallback, options.cpu_ops,
                                     config.act().norm_dividers() > 0}));
    MarkFusedGroups(fused.strips, fused.channels, network);
    StatusOr<CompiledModel> m = CompileNetwork(config, std::move(network), options);
    if (m.ok()) {
      m->row_strip_groups = fused.strips;
      m->channel_groups = fused.channels;
      m->kept_halos = fused.kept_halos && !fused.strips.empty();
      m->strips_beside_concats = fused.beside_concats && !fused.strips.empty();
    }
    return m;
  };
  // 1b. Row strips (row_strips.h): as told, or under kAuto whichever is predicted best
  // (Preferred) of the whole graph, the pairs split by default (pointwise producers), and every
  // pair split, as chains and as pairs; each with and without joins' branches; the default
  // split with the pairs a global pool reads in channel groups first; and the default split
  // with kept halos (chains then run on through residual blocks), a chain through residual
  // blocks in strips of half its rows and of two thirds (StripOptions::skewed_rows: resnet50
  // 4,293,394 cycles and 29.6 MB of DRAM traffic at half, 4,278,236 and 30.8 MB at two thirds;
  // resnext50_32x4d 4,529,073 at half, unchanged at two thirds; full-size exports, default
  // config); the default split of only the pairs whose intermediate and output overflow
  // the SRAM (StripOptions::overflowing_only: densenet121, convnext_tiny); a chain through the
  // blocks whose tensors exceed half the SRAM, in strips sized by what is alive at once
  // (lraspp_mobilenet_v3_large's stem to block 3); every pair beside the concatenations that
  // fit the SRAM, keeping halos (kBesideConcats); and with an SRAM
  // larger than kStripLimitsSramBytes, the default split with and without kept halos as for
  // each smaller SRAM down to it, halving.
  using RowStrips = CompileOptions::RowStrips;
  if (options.row_strips == RowStrips::kOff) return compile(Fused());
  // Row strips, then channel groups (channel_groups.h) of the pairs they leave whole, in the
  // graph with Linear layers over images as 1x1 convolutions (image_gemms.h).
  const ir::Graph splittable = ImageGemmsAsConvolutions(quantized);
  // `first`: the pooled pairs to put in channel groups before row strips, if any.
  // `split_config`: the config whose SRAM the split is for, if not `config`'s.
  const auto split_graph = [&](const StripOptions& strip,
                               std::optional<GroupedPairs> first = std::nullopt,
                               const spec::NpuConfig* split_config = nullptr) -> StatusOr<Fused> {
    const spec::NpuConfig& sized = split_config != nullptr ? *split_config : config;
    Fused fused;
    fused.graph = splittable.Clone();
    fused.kept_halos = strip.keep_halos;
    fused.beside_concats = strip.beside_concats;
    if (first) {
      NPU_ASSIGN_OR_RETURN(fused.channels, SplitChannelGroups(sized, fused.graph, *first,
                                                              config.sram().size_bytes()));
    }
    NPU_ASSIGN_OR_RETURN(fused.strips,
                         SplitRowStrips(sized, fused.graph, options.strip_rows, strip));
    NPU_ASSIGN_OR_RETURN(std::vector<ChannelGroupSplit> rest,
                         SplitChannelGroups(sized, fused.graph, GroupedPairs::kAll,
                                            config.sram().size_bytes()));
    fused.channels.insert(fused.channels.end(), rest.begin(), rest.end());
    NPU_TRY(BandConcatsByRowReaders(fused.graph).status());
    return fused;
  };
  if (options.row_strips == RowStrips::kOn) {
    StripOptions told = {.keep_halos = options.keep_halos};
    if (options.strips_beside_concats) {
      told = kBesideConcats;
      told.keep_halos = options.keep_halos;
    }
    NPU_ASSIGN_OR_RETURN(Fused split, split_graph(told));
    return compile(split);
  }
  NPU_ASSIGN_OR_RETURN(Fused split, split_graph({}));
  // The variants, each with other groups (by name) than those before it, compiled side by side
  // and judged in this order.
  std::vector<Fused> variants;
  variants.emplace_back();  // compiles `quantized` itself
  std::set<std::vector<std::string>> distinct = {{""}};
  const auto add = [&](Fused fused, const std::string& how = "") {
    std::vector<std::string> names = {how};
    for (const RowStripGroup& g : fused.strips) {
      names.push_back(fmt::format("{} in strips of {}", g.name(), g.rows));
    }
    for (const ChannelGroupSplit& g : fused.channels) names.push_back(g.name() + "#channels");
    if (distinct.insert(names).second) variants.push_back(std::move(fused));
  };
  add(std::move(split));
  NPU_ASSIGN_OR_RETURN(Fused unbranched, split_graph({.branches = false}));
  add(std::move(unbranched));
  NPU_ASSIGN_OR_RETURN(Fused pooled_channels_first, split_graph({}, GroupedPairs::kPooled));
  add(std::move(pooled_channels_first));
  for (const double skewed_rows : {0.5, 2.0 / 3}) {
    NPU_ASSIGN_OR_RETURN(Fused kept,
                         split_graph({.keep_halos = true, .skewed_rows = skewed_rows}));
    add(std::move(kept), "kept halos");
  }
  // A chain through residual blocks whose tensors could not stay on chip beside much else:
  // every pair whose intermediate exceeds half the SRAM beside those split by default, keeping
  // halos, with the pooled pairs in channel groups first, in strips sized by what is alive at
  // once (StripOptions::alive_share) within a third of the SRAM; and the same with a convolution
  // alone whose output a pool reads left to the strips (GroupedPairs::kPooledPairs): lraspp's
  // head, whose strips sum the pool's rows (row_strips.h), at 1 MiB; on `edge` its 277 KB of
  // weights do not fit beside them, and its channel groups move 12 % less DRAM traffic.
  for (const GroupedPairs first : {GroupedPairs::kPooled, GroupedPairs::kPooledPairs}) {
    NPU_ASSIGN_OR_RETURN(Fused through, split_graph({.every_pair = true,
                                                     .keep_halos = true,
                                                     .other_pairs_above = 0.5,
                                                     .alive_share = 1.0 / 3},
                                                    first));
    add(std::move(through), "kept halos");
  }
  NPU_ASSIGN_OR_RETURN(Fused overflowing, split_graph({.overflowing_only = true}));
  add(std::move(overflowing));
  // Every pair beside the concatenations that fit the SRAM, keeping halos (densenet121's dense
  // block 1, whose 56x56x256 concatenation then stays on chip: StripOptions::beside_concats).
  const std::vector<RowStripPair> beside = RowStripPairs(config, splittable, kBesideConcats);
  if (std::any_of(beside.begin(), beside.end(), [](const RowStripPair& p) { return p.concat; })) {
    NPU_ASSIGN_OR_RETURN(Fused fused, split_graph(kBesideConcats));
    add(std::move(fused), "beside concatenations");
  }
  for (const uint64_t bytes : SmallerSplitSrams(config)) {
    spec::NpuConfig smaller = config;
    smaller.mutable_sram()->set_size_bytes(bytes);
    for (const bool keep_halos : {false, true}) {
      NPU_ASSIGN_OR_RETURN(Fused fused,
                           split_graph({.keep_halos = keep_halos}, std::nullopt, &smaller));
      add(std::move(fused), keep_halos ? "kept halos" : "");
    }
  }
  const std::vector<RowStripPair> pairs = RowStripPairs(config, splittable);
  if (std::any_of(pairs.begin(), pairs.end(), [&](const RowStripPair& pair) {
        return !pair.by_default && !options.strip_rows.contains(pair.consumer);
      })) {
    for (const bool chains : {true, false}) {
      for (const bool branches : {true, false}) {
        NPU_ASSIGN_OR_RETURN(
            Fused all, split_graph({.every_pair = true, .chains = chains, .branches = branches}));
        add(std::move(all));
      }
    }
  }
  // (Each with its binary: compiling the one kept again without the others' measured slower,
  // vgg11 8.4 -> 10-12 s, than copying every variant's constants.)
  std::vector<StatusOr<CompiledModel>> compiled(variants.size(), InvalidArgument("not compiled"));
  std::mutex progress;
  size_t done = 0;
  if (options.progress) options.progress(0, variants.size());
  ParallelFor(variants.size(), [&](size_t i) {
    compiled[i] = compile(variants[i]);
    if (!options.progress) return;
    std::lock_guard<std::mutex> lock(progress);
    options.progress(++done, variants.size());
  });
  StatusOr<CompiledModel> best = std::move(compiled[0]);
  for (size_t i = 1; i < compiled.size(); ++i) {
    if (compiled[i].ok() && (!best.ok() || Preferred(compiled[i]->cost, best->cost))) {
      best = std::move(compiled[i]);
    }
  }
  return best;
}

namespace {

// Step 3b: product strips written over their rows of the images they scale where the plan keeps
// those on chip (network.h, MakeSlicesInPlace), planned again; kept if the images stay on
// chip. Decided before the plan (for every image that may stay on chip beside its strips), an
// image the residency then left in DRAM took its products there too: efficientnet_b0 on `edge`
// +0.34 % cycles, where it is now -0.06 %.
void PlanProductsOverTheirImages(const spec::NpuConfig& config, const OnChipOptions& options,
                                 CompiledModel& m, std::vector<Lifetime>& life, OnChipPlan& chip) {
  Network merged = m.network;
  const int made = MakeSlicesInPlace(merged, chip.on_chip);
  if (made == 0) return;
  std::vector<Lifetime> merged_life = BufferLifetimes(merged);
  StatusOr<OnChipPlan> again = PlanOnChip(config, merged, merged_life, options);
  if (!again.ok()) return;
  for (size_t v = 0; v < merged.values.size(); ++v) {
    const int image = merged.values[v].buffer;
    if (image != m.network.values[v].buffer && !again->on_chip[image]) return;
  }
  m.network = std::move(merged);
  m.memory.elementwise_in_place += made;
  life = std::move(merged_life);
  chip = *std::move(again);
}

}  // namespace

StatusOr<CompiledModel> CompileNetwork(const spec::NpuConfig& config, Network network,
                                       const CompileOptions& options) {
  // 2. Buffers and lifetimes.
  NPU_TRY(spec::Validate(config));
  CompiledModel m;
  m.network = std::move(network);
  if (options.pack_groups) PackGroups(m.network);
  if (options.place_pools) MovePoolsBesideConvolutions(m.network);
  m.memory.elementwise_in_place = MakeElementwiseInPlace(m.network);
  std::vector<Lifetime> life = BufferLifetimes(m.network);
  // 3-4. On chip, then DRAM.
  const OnChipOptions chip_options{options.keep_activations_on_chip,
                                   options.prefetch_across_layers, &options.tilings,
                                   options.hold_constants};
  NPU_ASSIGN_OR_RETURN(OnChipPlan chip, PlanOnChip(config, m.network, life, chip_options));
  PlanProductsOverTheirImages(config, chip_options, m, life, chip);
  std::vector<LayerConstants> constants;
  for (size_t i = 0; i < m.network.layers.size(); ++i) {
    NPU_ASSIGN_OR_RETURN(LayerConstants c,
                         PackLayerConstants(m.network.layers[i], chip.schedules[i]));
    constants.push_back(std::move(c));
  }
  const ModelDramPlan dram = PlanModelDram(m.network, life, chip.on_chip, constants);
  // 5. Emit, tokens, relocate.
  EmitAll(m, chip, dram, constants);
  if (options.interleave_layers) Interleave(config, m);
  CutIntoSteps(m);
  AssignRunDependencies(m);
  const uint64_t data_base = (m.instructions.size() * spec::kInsnBytes + kDramAlignBytes - 1) /
                             kDramAlignBytes * kDramAlignBytes;
  if (data_base + dram.end > DramLimitBytes(config)) {
    return ResourceExhausted(fmt::format(
        "model '{}': the DRAM image needs {} bytes ({} instructions, {} bytes of constants, an "
        "activation arena of {} bytes); the config's DRAM (and 32-bit offsets) allow {}",
        m.network.name, data_base + dram.end, m.instructions.size(), dram.constants_bytes,
        dram.arena_bytes, DramLimitBytes(config)));
  }
  RelocateDram(m.instructions, data_base);
  DescribeCpuSteps(m, dram, constants, data_base);
  // 6. Predict; 7. describe.
  NPU_TRY(PredictModel(config, m));
  DescribeMemory(m, life, chip, dram, data_base);
  if (options.build_program) {
    NPU_ASSIGN_OR_RETURN(m.program, BuildModelProgram(config, m, constants, dram, data_base));
  }
  return m;
}

}  // namespace npu::compiler
