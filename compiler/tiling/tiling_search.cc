// The tiling search.
#include "compiler/tiling/tiling_search.h"

#include <algorithm>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "compiler/codegen/program_builder.h"
#include "compiler/cost/cost_model.h"
#include "compiler/schedule/conv_emitter.h"
#include "compiler/schedule/dependencies.h"
#include "compiler/tiling/tile_grid.h"
#include "compiler/tiling/tiling_estimate.h"

namespace npu::compiler {
namespace {

constexpr size_t kReplayedCandidates = 6;
constexpr uint32_t kMaxExtent = 4095;            // CONV out_h/out_w/in_h/in_w: 12 bits
constexpr uint32_t kMaxChannels = 65535;         // CONV in_c/out_c, ACT channels: 16 bits
constexpr uint64_t kMaxPixels = (1u << 20) - 1;  // ACT pixels: 20 bits

// Tile sizes for one axis: the whole extent, near-even splits into k tiles (k growing roughly
// geometrically), and the same rounded to a multiple of `multiple` (the array side the axis
// maps to), all capped at `cap`.
std::vector<uint32_t> AxisSizes(uint32_t extent, uint32_t multiple, uint32_t cap) {
  std::set<uint32_t> sizes;
  auto add = [&](uint64_t v) {
    if (v >= 1 && v <= std::min(extent, cap)) sizes.insert(static_cast<uint32_t>(v));
  };
  for (uint64_t k = 1; k <= extent; k = k < 4 ? k + 1 : k * 3 / 2) {
    const uint64_t even = (extent + k - 1) / k;
    add(even);
    add((even + multiple - 1) / multiple * multiple);
    add(even / multiple * multiple);
  }
  add(cap);
  add(1);
  return {sizes.begin(), sizes.end()};
}

// Smallest input-channel tile whose reduction kh*kw*ic fills whole array rows.
uint32_t IcMultiple(const spec::NpuConfig& c, const ConvLayer& l) {
  const uint32_t window = l.kernel_h * l.kernel_w, rows = c.mac().rows();
  return rows / std::gcd(rows, window);
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

// One minimal double-buffered tile: a single output pixel, channel and input channel.
uint64_t MinimalTileBytes(const ConvLayer& l) {
  const TileGrid g(l, ConvTiling{});
  return 2 * (g.MaxInputTileBytes() + g.MaxWeightTileBytes() + spec::kActParamBytes + 1);
}

struct Ranked {
  TilingChoice choice;
  TilingEstimate estimate;
};

// Emits and replays one candidate: cycles, then DRAM bytes, then instruction count.
std::tuple<uint64_t, uint64_t, size_t> Replay(const spec::NpuConfig& c, const ConvLayer& l,
                                              const TilingChoice& choice) {
  std::vector<spec::Instruction> insns = EmitConv(l, choice.tiling, choice.plan, PlaceData(l));
  AssignDependencies(insns);
  const StatusOr<CostEstimate> cost = PredictCost(c, insns);
  NPU_CHECK(cost.ok());  // the dependency pass only emits backward, balanced tokens
  return {cost->cycles, cost->dram_bytes(), insns.size()};
}

}  // namespace

Status CheckTilingFields(const ConvLayer& l, const ConvTiling& t) {
  const std::tuple<const char*, uint32_t, uint32_t, uint32_t> limits[] = {
      {"tile_oh", t.tile_oh, l.OutH(), kMaxExtent},
      {"tile_ow", t.tile_ow, l.OutW(), kMaxExtent},
      {"tile_oc", t.tile_oc, l.out_c, kMaxChannels},
      {"tile_ic", t.tile_ic, l.in_c, kMaxChannels}};
  for (const auto& [field, value, extent, cap] : limits) {
    if (value == 0 || value > extent || value > cap) {
      return InvalidArgument(
          fmt::format("{} = {}: must be between 1 and min({}, {})", field, value, extent, cap));
    }
  }
  if (uint64_t{t.tile_oh} * t.tile_ow > kMaxPixels) {
    return ResourceExhausted(fmt::format("tile_oh x tile_ow = {}: ACT encodes at most {} pixels",
                                         uint64_t{t.tile_oh} * t.tile_ow, kMaxPixels));
  }
  const TileGrid g(l, t);
  if (g.MaxInputRows() > kMaxExtent || g.MaxInputCols() > kMaxExtent) {
    return ResourceExhausted(fmt::format("input tile {}x{}: CONV encodes at most {} rows/cols",
                                         g.MaxInputRows(), g.MaxInputCols(), kMaxExtent));
  }
  return Status::Ok();
}

StatusOr<TilingChoice> FitTiling(const spec::NpuConfig& config, const ConvLayer& layer,
                                 const ConvTiling& tiling) {
  NPU_TRY(CheckTilingFields(layer, tiling));
  NPU_ASSIGN_OR_RETURN(SramPlan plan, FitSram(config, TileGrid(layer, tiling), tiling));
  return TilingChoice{tiling, plan};
}

std::vector<ConvTiling> CandidateTilings(const spec::NpuConfig& c, const ConvLayer& l) {
  const uint64_t acc_half = c.mac().acc_buffer_bytes() / 4 / 2;
  std::vector<ConvTiling> out;
  for (uint32_t oc : AxisSizes(l.out_c, c.mac().cols(), kMaxChannels)) {
    for (uint32_t ic : AxisSizes(l.in_c, IcMultiple(c, l), kMaxChannels)) {
      for (uint32_t oh : AxisSizes(l.OutH(), 1, kMaxExtent)) {
        for (uint32_t ow : AxisSizes(l.OutW(), 1, kMaxExtent)) {
          if (uint64_t{oh} * ow * oc > acc_half) continue;  // two accumulator tiles
          for (LoopOrder order : {LoopOrder::kSpatialOuter, LoopOrder::kChannelOuter}) {
            const ConvTiling base{oh, ow, oc, ic, order};
            for (const ConvTiling& t : WithResidency(TileGrid(l, base), base)) out.push_back(t);
          }
        }
      }
    }
  }
  return out;
}

StatusOr<TilingChoice> ChooseTiling(const spec::NpuConfig& config, const ConvLayer& layer) {
  // 1. Candidates that fit SRAM, the accumulator and (with their instructions) DRAM, with their
  //    analytic estimate.
  std::vector<Ranked> fitting;
  size_t too_many_instructions = 0;
  for (const ConvTiling& t : CandidateTilings(config, layer)) {
    StatusOr<TilingChoice> choice = FitTiling(config, layer, t);
    if (!choice.ok()) continue;
    const TilingEstimate estimate = EstimateTiling(config, layer, t);
    if (!CheckDramFits(config, layer, estimate.instructions).ok()) {
      ++too_many_instructions;
      continue;
    }
    fitting.push_back({*choice, estimate});
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
        "channel, 1 input channel) needs {} bytes of SRAM; the config has {}",
        layer.DisplayName(), MinimalTileBytes(layer), config.sram().size_bytes()));
  }
  // 2. The best few by the estimate, then 3. the fastest of them by the replayed cost model.
  const size_t keep = std::min(kReplayedCandidates, fitting.size());
  std::partial_sort(fitting.begin(), fitting.begin() + keep, fitting.end(),
                    [](const Ranked& a, const Ranked& b) {
                      return std::tie(a.estimate.cycles, a.estimate.dram_bytes) <
                             std::tie(b.estimate.cycles, b.estimate.dram_bytes);
                    });
  size_t best = 0;
  std::tuple<uint64_t, uint64_t, size_t> best_cost = Replay(config, layer, fitting[0].choice);
  for (size_t i = 1; i < keep; ++i) {
    const auto cost = Replay(config, layer, fitting[i].choice);
    if (cost < best_cost) best = i, best_cost = cost;
  }
  return fitting[best].choice;
}

}  // namespace npu::compiler
