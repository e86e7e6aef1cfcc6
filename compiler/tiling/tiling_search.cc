// The tiling search.
#include "compiler/tiling/tiling_search.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "compiler/codegen/program_builder.h"
#include "compiler/cost/cost_model.h"
#include "compiler/schedule/conv_emitter.h"
#include "compiler/tiling/candidate_cost.h"
#include "compiler/tiling/tile_grid.h"
#include "compiler/tiling/tiling_estimate.h"

namespace npu::compiler {
namespace {

// Measured (default config, --timing-only --no-tuning, with the row-band preference): 6 -> 8
// took mobilenet_v2 414,821 -> 412,065 cycles and efficientnet_b0 (full-size export) 738,966 ->
// 721,675; 12 gave 411,090 and 722,046; resnet18 1,852,499 at all three.
constexpr size_t kReplayedCandidates = 8;
// ChooseTiling's DRAM tie-break. Measured (full-size exports, default config, --timing-only
// --no-tuning) against SRAM first: cnn1d's DRAM 1.21x -> 1.05x its least (its first convolution
// re-read its weights per band), convnext_tiny 1.35x -> 1.27x, lraspp 6.74x -> 5.96x, vgg11 1.17x
// -> 1.14x, cycles within 0.5 % except resnext50_32x4d (+2.9 %: its conv1 and pool moved to row
// strips); resnet18's and mobilenet_v2's DRAM on the tiny config -14 % and -12 %. With no margin
// (DRAM strictly first) alexnet's classifier took a tiling 0.06 % lighter and 13 k cycles slower.
constexpr double kDramMargin = 1.10;
constexpr uint32_t kMaxExtent = 4095;            // CONV out_h/out_w/in_h/in_w: 12 bits
constexpr uint32_t kMaxChannels = 65535;         // CONV in_c/out_c, ACT channels: 16 bits
constexpr uint64_t kMaxPixels = (1u << 20) - 1;  // ACT pixels: 20 bits
constexpr uint32_t kMaxDwConvField = 15;         // DWCONV kernel, pad: 4 bits
constexpr uint32_t kMaxDwConvStep = 7;           // DWCONV stride, dilation: 3 bits
constexpr uint32_t kMaxDwConvInStride = 2047;    // DWCONV in_pixel_stride: 11 bits
constexpr uint32_t kMaxDwConvExtent = 4095;      // DWCONV channels, pixel stride, extents: 12

// Tile sizes for one axis: the whole extent, near-even splits into k tiles (k growing roughly
// geometrically), and the same rounded to a multiple of `multiple` (the array side the axis
// maps to), all capped at `cap`. `aligned` keeps only the multiples and the whole extent when the
// extent spans at least one multiple: other sizes leave array rows or columns idle.
std::vector<uint32_t> AxisSizes(uint32_t extent, uint32_t multiple, uint32_t cap,
                                bool aligned = false) {
  aligned = aligned && extent >= multiple && multiple > 1;
  std::set<uint32_t> sizes;
  auto add = [&](uint64_t v) {
    if (v >= 1 && v <= std::min(extent, cap)) sizes.insert(static_cast<uint32_t>(v));
  };
  for (uint64_t k = 1; k <= extent; k = k < 4 ? k + 1 : k * 3 / 2) {
    const uint64_t even = (extent + k - 1) / k;
    if (!aligned) add(even);
    add((even + multiple - 1) / multiple * multiple);
    add(even / multiple * multiple);
  }
  add(extent);
  if (!aligned) add(cap), add(1);
  return {sizes.begin(), sizes.end()};
}

// Smallest input-channel tile whose reduction kh*kw*ic fills whole array rows.
uint32_t IcMultiple(const spec::NpuConfig& c, const ConvLayer& l) {
  const uint32_t window = l.kernel_h * l.kernel_w, rows = c.mac().rows();
  return rows / std::gcd(rows, window);
}

// A grouped layer's oc tile sizes: whole groups, as many as fill the columns and their multiples.
std::vector<uint32_t> GroupedOcSizes(const spec::NpuConfig& c, const ConvLayer& l,
                                     bool exhaustive) {
  const uint32_t ng = l.GroupOutputs();
  std::vector<uint32_t> sizes =
      AxisSizes(l.groups, std::max(1u, c.mac().cols() / ng), kMaxChannels / ng, !exhaustive);
  for (uint32_t& s : sizes) s *= ng;
  return sizes;
}

// Column tile sizes. Whole-width row bands read no column halo twice and let on-chip tensors be
// read and written in place, so when one output row of an array-wide channel tile fits half the
// accumulator, a few halvings of the width suffice; otherwise every split is tried.
std::vector<uint32_t> WidthSizes(const spec::NpuConfig& c, const ConvLayer& l,
                                 const TilingContext& ctx, bool exhaustive) {
  const uint32_t out_w = l.OutW();
  if (ctx.input_on_chip) return {out_w};
  const uint64_t acc_half = c.mac().acc_buffer_bytes() / 4 / 2;
  if (exhaustive || uint64_t{out_w} * std::min(l.out_c, c.mac().cols()) > acc_half) {
    return AxisSizes(out_w, 1, kMaxExtent);
  }
  std::set<uint32_t> sizes;
  for (uint32_t parts : {1u, 2u, 4u}) sizes.insert((out_w + parts - 1) / parts);
  return {sizes.begin(), sizes.end()};
}

// Residency options that change something for this grid (others duplicate the default).
std::vector<ConvTiling> WithResidency(const TileGrid& g, ConvTiling t) {
  const LoadCounts plain = CountLoads(g, t);
  std::vector<ConvTiling> out;
  for (int mask = 0; mask < 8; ++mask) {
    t.inputs_resident = mask & 1;
    t.weights_resident = mask & 2;
    t.params_resident = mask & 4;
    if ((t.inputs_resident && plain.input_passes == 1) ||
        (t.weights_resident && plain.weight_passes == 1) ||
        (t.params_resident && plain.param_passes == 1)) {
      continue;
    }
    out.push_back(t);
  }
  return out;
}

// Held constants: weights and params resident and held as `held` says, on its unit; inputs
// resident or not (if in DRAM).
std::vector<ConvTiling> HeldResidency(ConvTiling t, const ConvTiling& held) {
  t.weights_resident = t.params_resident = true;
  t.held = held.held;
  t.on_vector = held.on_vector;
  std::vector<ConvTiling> out = {t};
  t.inputs_resident = true;
  if (!t.input_on_chip) out.push_back(t);
  return out;
}

// One minimal tile, double-buffered: one output pixel, channel and input channel (whole rows and
// every input channel when the input is read in place).
uint64_t MinimalTileBytes(const spec::NpuConfig& c, const ConvLayer& l, const TilingContext& ctx) {
  ConvTiling t;
  t.input_on_chip = ctx.input_on_chip;
  t.output_on_chip = ctx.output_on_chip;
  if (l.fp16) t.tile_ic = l.WeightChannels();  // one CONV per output (ConvLayer::fp16)
  if (ctx.input_on_chip) {
    t.tile_ow = l.OutW();
    t.tile_ic = l.WeightChannels();
    if (l.depthwise) t.tile_oc = l.out_c;
  }
  if (l.groups > 1) {  // one group, or all with the input read in place
    t.tile_oc = ctx.input_on_chip ? l.out_c : l.GroupOutputs();
    t.tile_ic = l.WeightChannels();
  }
  const TileGrid g(l, t);
  return PlanSram(g, t, 1).sram_bytes;
}

// CheckTilingFields without the message (on-chip and field-width rules).
bool TilingFieldsFit(const ConvLayer& l, const ConvTiling& t) {
  if (l.fp16 && t.tile_ic != l.WeightChannels()) return false;
  if (l.groups > 1 && (t.tile_oc % l.GroupOutputs() != 0 || t.tile_ic != l.WeightChannels())) {
    return false;
  }
  if (t.tile_oh == 0 || t.tile_oh > l.OutH() || t.tile_ow == 0 || t.tile_ow > l.OutW() ||
      t.tile_oc == 0 || t.tile_oc > l.out_c || t.tile_ic == 0 || t.tile_ic > l.WeightChannels() ||
      uint64_t{t.tile_oh} * t.tile_ow > kMaxPixels) {
    return false;
  }
  if (t.input_on_chip && (t.tile_ow != l.OutW() || t.tile_ic != l.WeightChannels() ||
                          ((l.depthwise || l.groups > 1) && t.tile_oc != l.out_c))) {
    return false;
  }
  if (t.input_pixel_stride != 0 && (!t.input_on_chip || !t.on_vector)) return false;
  if (t.subsampled_input && (t.input_on_chip || !CanSubsampleInput(l))) return false;
  if (t.output_on_chip && t.tile_ow != l.OutW() && t.tile_oh != 1) return false;
  if ((l.stride_h > kMaxConvField && t.tile_oh != 1) ||
      (l.stride_w > kMaxConvField && t.tile_ow != 1)) {
    return false;
  }
  if (t.input_on_chip && (l.kernel_w > kMaxConvField || l.dilation_w > kMaxConvField)) {
    return false;  // column blocks would start reading mid-row
  }
  const TileGrid g(l, t);
  return g.MaxInputRows() <= kMaxExtent && g.MaxInputCols() <= kMaxExtent &&
         g.MaxPadBefore() <= kMaxConvPad;
}

struct Ranked {
  TilingChoice choice;
  TilingEstimate estimate;
};

// The candidates that fit, with their estimates; too_many_instructions counts those whose
// instruction stream alone would overflow the image.
std::vector<Ranked> FittingCandidates(const spec::NpuConfig& config, const ConvLayer& layer,
                                      const TilingContext& ctx, bool exhaustive,
                                      size_t* too_many_instructions) {
  std::vector<Ranked> fitting;
  for (const ConvTiling& t : CandidateTilings(config, layer, ctx, exhaustive)) {
    if (!TilingFieldsFit(layer, t)) continue;
    const std::optional<SramPlan> plan = TryFitSram(config, TileGrid(layer, t), t, ctx.sram_budget);
    if (!plan) continue;
    const std::optional<TilingChoice> choice = TilingChoice{t, *plan};
    const TilingEstimate estimate = EstimateTiling(config, layer, t);
    if (!CheckDramFits(config, layer, estimate.instructions).ok()) {
      ++*too_many_instructions;
      continue;
    }
    fitting.push_back({*choice, estimate});
  }
  return fitting;
}

// Fitting candidates sorted by estimate, or the error saying why there are none.
StatusOr<std::vector<Ranked>> RankCandidates(const spec::NpuConfig& config, const ConvLayer& layer,
                                             const TilingContext& ctx) {
  size_t too_many_instructions = 0;
  std::vector<Ranked> fitting =
      FittingCandidates(config, layer, ctx, false, &too_many_instructions);
  if (fitting.empty()) {
    fitting = FittingCandidates(config, layer, ctx, true, &too_many_instructions);
  }
  if (fitting.empty() && too_many_instructions > 0) {
    return ResourceExhausted(fmt::format(
        "layer '{}': every tiling that fits SRAM needs so many instructions that the image "
        "exceeds the {} bytes of DRAM",
        layer.DisplayName(), DramLimitBytes(config)));
  }
  if (fitting.empty()) {
    return ResourceExhausted(fmt::format(
        "layer '{}': no tiling fits: one minimal double-buffered tile (1 output pixel, 1 output "
        "channel, 1 input channel{}) needs {} bytes of SRAM; {}",
        layer.DisplayName(), ctx.input_on_chip ? ", reading the on-chip input in place" : "",
        MinimalTileBytes(config, layer, ctx), SramAvailableText(config, ctx.sram_budget)));
  }
  // The best kReplayedCandidates first, in order; the rest unordered (only scanned).
  const size_t keep = std::min(kReplayedCandidates, fitting.size());
  std::partial_sort(
      fitting.begin(), fitting.begin() + keep, fitting.end(), [](const Ranked& a, const Ranked& b) {
        return std::tie(a.estimate.cycles, a.estimate.dram_bytes, a.choice.plan.sram_bytes) <
               std::tie(b.estimate.cycles, b.estimate.dram_bytes, b.choice.plan.sram_bytes);
      });
  return fitting;
}

// Emits and replays one candidate (on-chip tensors placed after its buffers): cycles, then DRAM
// bytes, then instruction count.
std::tuple<uint64_t, uint64_t, size_t> Replay(const spec::NpuConfig& c, const ConvLayer& l,
                                              const TilingChoice& choice) {
  ConvOperands ops = PlaceData(l);
  const uint64_t stripe = uint64_t{c.sram().banks()} * c.sram().bank_width_bytes();
  const uint64_t after = (choice.plan.sram_bytes + stripe - 1) / stripe * stripe;
  const uint32_t in_pixel = choice.tiling.input_pixel_stride ? choice.tiling.input_pixel_stride
                                                              : l.in_c;
  if (choice.tiling.input_on_chip) ops.input = {true, after, in_pixel, 0};
  if (choice.tiling.output_on_chip) {
    const uint64_t input_bytes = uint64_t{l.batches} * l.InputBytes() / l.in_c * in_pixel;
    ops.output = {true, after + input_bytes, l.out_c, 0};
  }
  const std::vector<spec::Instruction> insns = EmitConv(l, choice.tiling, choice.plan, ops);
  const CostEstimate cost = CandidateCost(c, insns);
  return {cost.cycles, cost.dram_bytes(), insns.size()};
}

}  // namespace

Status CheckTilingFields(const ConvLayer& l, const ConvTiling& t) {
  const std::tuple<const char*, uint32_t, uint32_t, uint32_t> limits[] = {
      {"tile_oh", t.tile_oh, l.OutH(), kMaxExtent},
      {"tile_ow", t.tile_ow, l.OutW(), kMaxExtent},
      {"tile_oc", t.tile_oc, l.out_c, kMaxChannels},
      {"tile_ic", t.tile_ic, l.WeightChannels(), kMaxChannels}};
  for (const auto& [field, value, extent, cap] : limits) {
    if (value == 0 || value > extent || value > cap) {
      return InvalidArgument(
          fmt::format("{} = {}: must be between 1 and min({}, {})", field, value, extent, cap));
    }
  }
  if (l.fp16 && t.tile_ic != l.WeightChannels()) {
    return InvalidArgument(fmt::format(
        "tile_ic = {}: an FP16 layer reduces in one CONV per output (each CONV rounds its sum): "
        "tile_ic must be {}",
        t.tile_ic, l.WeightChannels()));
  }
  if (l.groups > 1 && (t.tile_oc % l.GroupOutputs() != 0 || t.tile_ic != l.WeightChannels())) {
    return InvalidArgument(fmt::format(
        "a grouped layer ({} groups of {} output channels): tile_oc must hold whole groups (a "
        "multiple of {}) and tile_ic must be a group's {} input channels",
        l.groups, l.GroupOutputs(), l.GroupOutputs(), l.WeightChannels()));
  }
  if (uint64_t{t.tile_oh} * t.tile_ow > kMaxPixels) {
    return ResourceExhausted(fmt::format("tile_oh x tile_ow = {}: ACT encodes at most {} pixels",
                                         uint64_t{t.tile_oh} * t.tile_ow, kMaxPixels));
  }
  if (t.input_on_chip && (t.tile_ow != l.OutW() || t.tile_ic != l.WeightChannels() ||
                          ((l.depthwise || l.groups > 1) && t.tile_oc != l.out_c))) {
    return InvalidArgument(
        "an on-chip input is read in place: tiles must be whole rows of every input channel");
  }
  if (t.input_pixel_stride != 0 && (!t.input_on_chip || !t.on_vector)) {
    return InvalidArgument(fmt::format(
        "an on-chip input with a pixel stride of {} (a channel block of a wider tensor) is read "
        "only by DWCONV: the tiling must be on the vector unit",
        t.input_pixel_stride));
  }
  if (t.subsampled_input && (t.input_on_chip || !CanSubsampleInput(l))) {
    return InvalidArgument(
        "only a strided 1x1 convolution without padding, reading its input from DRAM, LOADs a "
        "subsampled input");
  }
  if (t.output_on_chip && t.tile_ow != l.OutW() && t.tile_oh != 1) {
    return InvalidArgument(
        "an on-chip output is written in place: tiles must be whole rows or a single row");
  }
  if (l.stride_h > kMaxConvField && t.tile_oh != 1) {
    return InvalidArgument(
        fmt::format("stride_h = {} > {}: tiles must be one row", l.stride_h, kMaxConvField));
  }
  if (l.stride_w > kMaxConvField && t.tile_ow != 1) {
    return InvalidArgument(
        fmt::format("stride_w = {} > {}: tiles must be one column", l.stride_w, kMaxConvField));
  }
  if (t.input_on_chip && (l.kernel_w > kMaxConvField || l.dilation_w > kMaxConvField)) {
    return InvalidArgument("a kernel cut into column blocks cannot read an on-chip input");
  }
  if (t.held != HeldConstants::kNone &&
      (!t.weights_resident || !t.params_resident || l.activation_weights)) {
    return InvalidArgument(
        "held constants are a layer's own weights and records, every tile resident");
  }
  const TileGrid g(l, t);
  if (g.MaxInputRows() > kMaxExtent || g.MaxInputCols() > kMaxExtent) {
    return ResourceExhausted(fmt::format("input tile {}x{}: CONV encodes at most {} rows/cols",
                                         g.MaxInputRows(), g.MaxInputCols(), kMaxExtent));
  }
  if (g.MaxPadBefore() > kMaxConvPad) {
    return ResourceExhausted(
        fmt::format("a tile needs {} padding rows/cols before its input; "
                    "CONV encodes at most {}",
                    g.MaxPadBefore(), kMaxConvPad));
  }
  return Status::Ok();
}

Status CheckVectorDepthwise(const spec::NpuConfig& c, const ConvLayer& l, const ConvTiling& t) {
  if (!t.on_vector) return Status::Ok();
  if (c.act().depthwise_taps() == 0) {
    return InvalidArgument("on the vector unit: this config has no depthwise datapath "
                           "(act.depthwise_taps = 0)");
  }
  if (!l.depthwise || l.fp16 || l.weights_int4 || l.weight_zero_point != 0) {
    return InvalidArgument("on the vector unit: only an int8 depthwise layer runs as DWCONV");
  }
  const TileGrid g(l, t);
  const uint32_t stride = t.output_on_chip ? l.out_c : t.tile_oc;
  if (g.reductions() != 1 || g.MaxPadBefore() > kMaxDwConvField ||
      std::max(l.kernel_h, l.kernel_w) > kMaxDwConvField ||
      std::max({l.stride_h, l.stride_w, l.dilation_h, l.dilation_w}) > kMaxDwConvStep ||
      std::max({t.tile_oc, stride, g.MaxInputRows(), g.MaxInputCols()}) > kMaxDwConvExtent ||
      t.input_pixel_stride > kMaxDwConvInStride) {
    return InvalidArgument(fmt::format(
        "on the vector unit: DWCONV encodes kernels and padding up to {}, strides and dilations "
        "up to {}, channels, output pixel strides and input extents up to {} and input pixel "
        "strides up to {}",
        kMaxDwConvField, kMaxDwConvStep, kMaxDwConvExtent, kMaxDwConvInStride));
  }
  return Status::Ok();
}

StatusOr<TilingChoice> FitTiling(const spec::NpuConfig& config, const ConvLayer& layer,
                                 const ConvTiling& tiling, uint64_t budget_bytes) {
  NPU_TRY(CheckTilingFields(layer, tiling));
  NPU_TRY(CheckVectorDepthwise(config, layer, tiling));
  NPU_ASSIGN_OR_RETURN(SramPlan plan,
                       FitSram(config, TileGrid(layer, tiling), tiling, budget_bytes));
  return TilingChoice{tiling, plan};
}

std::vector<ConvTiling> CandidateTilings(const spec::NpuConfig& c, const ConvLayer& l,
                                         const TilingContext& ctx, bool exhaustive) {
  const uint64_t acc_half = c.mac().acc_buffer_bytes() / 4 / 2;
  const std::vector<uint32_t> oc_sizes =
      (l.depthwise || l.groups > 1) && ctx.input_on_chip ? std::vector<uint32_t>{l.out_c}
      : l.groups > 1 ? GroupedOcSizes(c, l, exhaustive)
                     : AxisSizes(l.out_c, c.mac().cols(), kMaxChannels, !exhaustive);
  const std::vector<uint32_t> ic_sizes =
      l.depthwise || l.groups > 1 ? std::vector<uint32_t>{l.WeightChannels()}
      : ctx.input_on_chip ? std::vector<uint32_t>{l.in_c}
                          : AxisSizes(l.in_c, IcMultiple(c, l), kMaxChannels, !exhaustive);
  const std::vector<uint32_t> ow_sizes = WidthSizes(c, l, ctx, exhaustive);
  const bool vector_depthwise = l.depthwise && c.act().depthwise_taps() > 0;
  std::vector<ConvTiling> out;
  for (uint32_t oc : ctx.held ? std::vector<uint32_t>{ctx.held->tile_oc} : oc_sizes) {
    for (uint32_t ic : ctx.held ? std::vector<uint32_t>{ctx.held->tile_ic} : ic_sizes) {
      for (uint32_t oh : AxisSizes(l.OutH(), 1, kMaxExtent)) {
        for (uint32_t ow : ow_sizes) {
          if (uint64_t{oh} * ow * oc > acc_half) continue;  // two accumulator tiles
          if (ctx.output_on_chip && ow != l.OutW() && oh != 1) continue;
          for (LoopOrder order : {LoopOrder::kSpatialOuter, LoopOrder::kChannelOuter}) {
            ConvTiling base{oh, ow, oc, ic, order};
            base.input_on_chip = ctx.input_on_chip;
            base.output_on_chip = ctx.output_on_chip;
            base.input_pixel_stride = ctx.input_pixel_stride;
            if (ctx.held != nullptr) {
              for (ConvTiling t : HeldResidency(base, *ctx.held)) {
                if (!t.on_vector || CheckVectorDepthwise(c, l, t).ok()) out.push_back(t);
              }
              continue;
            }
            for (ConvTiling t : WithResidency(TileGrid(l, base), base)) {
              out.push_back(t);
              t.on_vector = true;
              if (vector_depthwise && CheckVectorDepthwise(c, l, t).ok()) out.push_back(t);
            }
          }
        }
      }
    }
  }
  // Each also LOADing a subsampled input, where it may (the estimate weighs the shorter DMA
  // runs against the fewer bytes).
  if (!ctx.input_on_chip && CanSubsampleInput(l)) {
    const size_t plain = out.size();
    for (size_t i = 0; i < plain; ++i) {
      out.push_back(out[i]);
      out.back().subsampled_input = true;
    }
  }
  return out;
}

StatusOr<TilingOutlook> SurveyTilings(const spec::NpuConfig& config, const ConvLayer& layer,
                                      const TilingContext& context) {
  NPU_ASSIGN_OR_RETURN(const std::vector<Ranked> ranked, RankCandidates(config, layer, context));
  TilingOutlook outlook{ranked[0].estimate.cycles, ranked[0].choice.plan.sram_bytes};
  for (const Ranked& r : ranked) {
    if (r.estimate.cycles > outlook.cycles * kNearBestEstimate) continue;
    outlook.sram_bytes = std::min(outlook.sram_bytes, r.choice.plan.sram_bytes);
  }
  return outlook;
}

StatusOr<TilingChoice> ChooseTiling(const spec::NpuConfig& config, const ConvLayer& layer,
                                    const TilingContext& context) {
  // 1. Fitting candidates ranked by the estimate; 2. the best few replayed with the cost model;
  // 3. among those near the fastest, one on the vector unit's depthwise datapath if any (it
  // leaves the MAC array to the neighbouring layers), then one in row bands if a depthwise
  // convolution reads the output (each band's ACTs write only its rows, so the reader starts on the
  // first bands while the array computes the rest, where a tile of all rows per output-channel
  // tile writes every row each time and the reader waits for the last), then the one using the
  // least SRAM. What the single-layer replay cannot see (the neighbours) is worth a wider
  // margin for bands: measured (default config, --timing-only --no-tuning), mobilenet_v2 420,757
  // -> 415,849 cycles at 3 %, 418,156 at 2 %, 416,682 at 5 %; mnasnet1_0 (full-size export)
  // 456,296 -> 449,216, 452,839, 449,861; resnet18 1,854,367 -> 1,856,866 (its convolutions
  // are read by adds).
  NPU_ASSIGN_OR_RETURN(const std::vector<Ranked> ranked, RankCandidates(config, layer, context));
  const size_t keep = std::min(kReplayedCandidates, ranked.size());
  std::vector<std::tuple<uint64_t, uint64_t, size_t>> costs;
  for (size_t i = 0; i < keep; ++i) costs.push_back(Replay(config, layer, ranked[i].choice));
  const auto fastest = *std::min_element(costs.begin(), costs.end());
  auto banded = [&](size_t i) {
    const ConvTiling& t = ranked[i].choice.tiling;
    return t.tile_oh < layer.OutH() && t.order == LoopOrder::kSpatialOuter;
  };
  // Near the fastest, DRAM traffic before SRAM: a tiling reading more than kDramMargin above the
  // least of the replayed costs the shared bus and the energy what its neighbours' prefetches and
  // the whole model pay, the SRAM it saves is only this layer's scratch.
  uint64_t least_dram = UINT64_MAX;
  for (const auto& cost : costs) least_dram = std::min(least_dram, std::get<1>(cost));
  auto preference = [&](size_t i) {
    const bool more_dram = double(std::get<1>(costs[i])) > double(least_dram) * kDramMargin;
    return std::tuple(!ranked[i].choice.tiling.on_vector, more_dram,
                      ranked[i].choice.plan.sram_bytes, costs[i]);
  };
  auto pick = [&](auto eligible) {
    size_t best = keep;
    for (size_t i = 0; i < keep; ++i) {
      if (eligible(i) && (best == keep || preference(i) < preference(best))) best = i;
    }
    return best;
  };
  const size_t best = pick([&](size_t i) {
    return std::get<0>(costs[i]) <= std::get<0>(fastest) * kNearBestReplay;
  });
  if (!context.output_read_by_depthwise || banded(best)) return ranked[best].choice;
  const size_t band = pick([&](size_t i) {
    return banded(i) && std::get<0>(costs[i]) <= std::get<0>(fastest) * kNearBestBanded &&
           std::get<1>(costs[i]) <= std::get<1>(costs[best]) &&
           ranked[i].choice.tiling.on_vector == ranked[best].choice.tiling.on_vector;
  });
  return ranked[band < keep ? band : best].choice;
}

}  // namespace npu::compiler
