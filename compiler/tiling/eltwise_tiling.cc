// ELTWISE and LUT tilings: chunks, SRAM slots, and the replayed search.
#include "compiler/tiling/eltwise_tiling.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "compiler/schedule/eltwise_emitter.h"
#include "compiler/tiling/remembered.h"
#include "compiler/tiling/vector_search.h"
#include "hw/spec/timing_model.h"

namespace npu::compiler {
namespace {

using vector_search::kMaxCount;
using vector_search::Place;
using vector_search::Replayed;
using vector_search::ReplayPlace;
using vector_search::Splits;

uint64_t ChunkCount(uint64_t elements, uint64_t chunk, uint64_t pixel) {
  if (pixel > 0 && chunk < pixel) return elements / pixel * ((pixel + chunk - 1) / chunk);
  return (elements + chunk - 1) / chunk;
}

// The b bytes one chunk reads from its slot, when b is loaded per chunk.
uint64_t BChunkBytes(const EltwiseLayer& l, uint64_t chunk) {
  if (l.broadcast != spec::Broadcast::kPixel) return chunk;
  return chunk >= l.c ? chunk / l.c : 1;
}

// Chunk sizes to try, in groups, each ascending: whole rows (more than one row in the tensor),
// then, only if none fits, parts of a row: any size, or whole pixels then parts of one when
// chunks must respect pixels. The first group with a size that fits wins.
std::vector<std::vector<uint64_t>> ChunkGroups(uint64_t h, uint64_t w, uint64_t c, uint64_t pixel) {
  const uint64_t row = w * c;
  std::vector<std::vector<uint64_t>> groups(1);
  if (h > 1 && row <= kMaxCount) {
    for (uint64_t n : Splits(h)) groups[0].push_back(n * row);
  }
  if (pixel == 0) {
    groups.push_back(Splits(row));
    return groups;
  }
  groups.emplace_back();
  for (uint64_t k : Splits(w)) groups.back().push_back(k * c);
  groups.push_back(Splits(c));
  return groups;
}

}  // namespace

std::string ToString(const EltwiseTiling& t) {
  return fmt::format("chunk={}{}{}{}", t.chunk, t.a_on_chip ? " a=sram" : "",
                     t.b_on_chip ? " b=sram" : "", t.output_on_chip ? " out=sram" : "");
}

std::string ToString(const LutTiling& t) {
  return fmt::format("chunk={}{}{}", t.chunk, t.input_on_chip ? " in=sram" : "",
                     t.output_on_chip ? " out=sram" : "");
}

std::string ToString(const NormTiling& t) {  // as a LUT's: chunks of elements
  return ToString(LutTiling{t.chunk, t.input_on_chip, t.output_on_chip});
}

std::string ToString(const CopyTiling& t) {  // as a LUT's
  return ToString(LutTiling{t.chunk, t.input_on_chip, t.output_on_chip});
}

std::string ToString(const GatherTiling& t) { return fmt::format("rows={}", t.chunk); }

std::vector<ElementChunk> Chunks(uint64_t elements, uint64_t chunk, uint64_t pixel) {
  NPU_CHECK(chunk > 0 && (pixel == 0 || chunk < pixel || chunk % pixel == 0));
  std::vector<ElementChunk> chunks;
  const uint64_t run = pixel > 0 && chunk < pixel ? pixel : elements;  // cut runs on their own
  for (uint64_t start = 0; start < elements; start += run) {
    const uint64_t end = std::min(elements, start + run);
    for (uint64_t offset = start; offset < end; offset += chunk) {
      chunks.push_back({offset, std::min(chunk, end - offset)});
    }
  }
  return chunks;
}

uint64_t ChunkPixel(const EltwiseLayer& l) {
  const bool per_pixel =
      l.broadcast == spec::Broadcast::kChannel || l.broadcast == spec::Broadcast::kPixel;
  return per_pixel ? l.c : 0;
}

bool BLoadedOnce(const EltwiseLayer& l) {
  return l.broadcast == spec::Broadcast::kChannel || l.broadcast == spec::Broadcast::kScalar;
}

VectorPlan PlanEltwiseSram(const EltwiseLayer& l, const EltwiseTiling& t, uint32_t align) {
  const uint32_t slots = ChunkCount(l.Elements(), t.chunk, ChunkPixel(l)) > 1 ? 2 : 1;
  VectorPlan plan;
  uint64_t cursor = 0;
  const uint64_t e = l.ElementBytes();
  plan.a = Place(&cursor, t.chunk * e, t.a_on_chip ? 0 : slots, align);
  if (BLoadedOnce(l)) {
    plan.b = Place(&cursor, l.BElements() * e, t.b_on_chip ? 0 : 1, align);
  } else {
    plan.b = Place(&cursor, BChunkBytes(l, t.chunk) * e, t.b_on_chip ? 0 : slots, align);
  }
  // The result overwrites a's slot (int8_out: its first half); an on-chip a needs its own
  // output slots.
  plan.out = Place(&cursor, t.chunk * l.OutputElementBytes(),
                   t.a_on_chip && !t.output_on_chip ? slots : 0, align);
  plan.sram_bytes = cursor;
  return plan;
}

namespace {

// A one-input layer with a constant block loaded once (a LUT's table, LNORM's records): the
// result overwrites the input's slot (the instruction reads a chunk before writing it), which
// holds the larger of the two; an on-chip input needs output slots of its own.
VectorPlan PlanOneInputSram(uint64_t elements, uint64_t chunk, uint64_t out_element_bytes,
                            uint64_t constant_bytes, bool input_on_chip, bool output_on_chip,
                            uint32_t align) {
  const uint32_t slots = elements > chunk ? 2 : 1;
  VectorPlan plan;
  uint64_t cursor = 0;
  const uint64_t out_bytes = chunk * out_element_bytes;
  plan.a = Place(&cursor, out_bytes, input_on_chip ? 0 : slots, align);
  plan.table = Place(&cursor, constant_bytes, 1, align);
  plan.out = Place(&cursor, out_bytes, input_on_chip && !output_on_chip ? slots : 0, align);
  plan.sram_bytes = cursor;
  return plan;
}

}  // namespace

VectorPlan PlanLutSram(const LutLayer& l, const LutTiling& t, uint32_t align) {
  return PlanOneInputSram(l.Elements(), t.chunk, l.OutputElementBytes(), l.TableBytes(),
                          t.input_on_chip, t.output_on_chip, align);
}

VectorPlan PlanNormSram(const NormLayer& l, const NormTiling& t, uint32_t align) {
  return PlanOneInputSram(l.Elements(), t.chunk, 1, l.ParamBytes(), t.input_on_chip,
                          t.output_on_chip, align);
}

VectorPlan PlanCopySram(const CopyLayer& l, const CopyTiling& t, uint32_t align) {
  VectorPlan plan;
  uint64_t cursor = 0;
  const uint32_t slots = ChunkCount(l.Elements(), t.chunk, l.c) > 1 ? 2 : 1;
  // No slot between two on-chip tensors: the LUTs move the bytes in place.
  plan.a = Place(&cursor, t.chunk, t.input_on_chip && t.output_on_chip ? 0 : slots, align);
  plan.sram_bytes = cursor;
  return plan;
}

VectorPlan PlanGatherSram(const GatherLayer& l, const GatherTiling& t, uint32_t align) {
  const uint64_t rows = l.Elements() / l.dims.back();
  VectorPlan plan;
  uint64_t cursor = 0;
  plan.a = Place(&cursor, t.chunk * l.dims.back(), rows > t.chunk ? 2 : 1, align);
  plan.sram_bytes = cursor;
  return plan;
}

namespace {

// The vector unit's cycles for `lane_cycles` of its lanes' work, without the pipeline fill (as
// Pick compares candidates).
uint64_t FillFreeCycles(const spec::NpuConfig& c, uint64_t lane_cycles) {
  return spec::ActComputeCycles(c, lane_cycles) - c.act().pipeline_cycles();
}

// The vector unit's cycles for the chunks of `tiling`, which run one after the other, without
// their pipeline fills: a lower bound of any stream that emits them. `work` is vector work per
// element (2 for ELTWISE, 1 with b held in the lanes).
template <class Tiling>
uint64_t VectorBound(const spec::NpuConfig& c, uint64_t elements, uint64_t pixel, uint64_t work,
                     const Tiling& t) {
  uint64_t cycles = 0;
  for (const ElementChunk& chunk : Chunks(elements, t.chunk, pixel)) {
    cycles += FillFreeCycles(c, work * chunk.count);
  }
  return cycles;
}

// Replays the tilings of the chunk sizes of the first group with one that fits, largest first,
// skipping those whose vector-unit bound alone is more than kNearBest above the fastest replayed
// so far: they cannot be near the fastest, so Pick would not take them (a row cut into single
// elements is not replayed). The candidates stay in the group's order.
template <class Tiling, class Plan, class Emit, class Bound>
std::vector<VectorChoice<Tiling>> TryChunks(const spec::NpuConfig& c, uint64_t budget,
                                            const std::vector<std::vector<uint64_t>>& groups,
                                            Tiling base, Plan plan_fn, Emit emit, Bound bound,
                                            std::vector<Replayed>& costs) {
  std::vector<VectorChoice<Tiling>> fitting;
  for (const std::vector<uint64_t>& group : groups) {
    std::vector<std::optional<std::pair<VectorChoice<Tiling>, Replayed>>> kept(group.size());
    uint64_t fastest = UINT64_MAX;
    for (size_t k = group.size(); k-- > 0;) {
      Tiling t = base;
      t.chunk = group[k];
      if (t.chunk > kMaxCount) continue;
      const auto plan =
          vector_search::FitPlan(c, budget, [&](uint32_t a) { return plan_fn(t, a); });
      if (!plan || (fastest != UINT64_MAX && bound(t) > fastest * vector_search::kNearBest)) {
        continue;
      }
      const Replayed r = vector_search::Replay(c, emit(t, *plan));
      fastest = std::min(fastest, r.cycles);
      kept[k] = {{t, *plan}, r};
    }
    for (const auto& candidate : kept) {
      if (!candidate) continue;
      fitting.push_back(candidate->first);
      costs.push_back(candidate->second);
    }
    if (!fitting.empty()) break;
  }
  return fitting;
}

// `unit`: the smallest chunk, "element" or "pixel".
Status NoChunkFits(const spec::NpuConfig& c, const std::string& layer, uint64_t bytes,
                   uint64_t budget, const char* unit = "element") {
  return ResourceExhausted(fmt::format(
      "layer '{}': no tiling fits: one {} per operand, double-buffered, needs {} bytes of "
      "SRAM; {}",
      layer, unit, bytes, SramAvailableText(c, budget)));
}

// A copy's chunk sizes (ChunkGroups); a shuffle's are whole pixels only, as its LOADs permute
// each pixel's channels, and so are those of a copy with an operand on chip, as its LUTs move
// pixels.
std::vector<std::vector<uint64_t>> CopyChunkGroups(const CopyLayer& l, const CopyTiling& t) {
  std::vector<std::vector<uint64_t>> groups = ChunkGroups(l.h, l.w, l.c, l.c);
  if (l.Shuffles() || t.AnyOnChip()) groups.pop_back();  // parts of one pixel
  return groups;
}

StatusOr<VectorChoice<EltwiseTiling>> SearchEltwiseTiling(const spec::NpuConfig& c,
                                                          const EltwiseLayer& l,
                                                          EltwiseTiling on_chip,
                                                          uint64_t sram_budget) {
  NPU_CHECK(!(on_chip.b_on_chip && l.b_is_constant()));  // a constant b lives in DRAM
  const uint64_t budget = sram_budget ? sram_budget : c.sram().size_bytes();
  auto emit = [&](const EltwiseTiling& t, const VectorPlan& plan) {
    uint64_t dram = 0, sram = plan.sram_bytes;
    const uint32_t e = uint32_t(l.ElementBytes()), oe = uint32_t(l.OutputElementBytes());
    const EltwiseOperands ops{
        ReplayPlace(t.a_on_chip, &dram, &sram, l.Elements() * e, l.c, e),
        ReplayPlace(t.b_on_chip, &dram, &sram, l.BElements() * e, l.c, e),
        ReplayPlace(t.output_on_chip, &dram, &sram, l.Elements() * oe, l.c, oe)};
    return EmitEltwise(l, t, plan, ops);
  };
  std::vector<Replayed> costs;
  auto bound = [&](const EltwiseTiling& t) {
    // Any broadcast may leave b in the lanes for some chunks (a part of a pixel reads a scalar).
    return VectorBound(c, l.Elements(), ChunkPixel(l),
                       l.broadcast == spec::Broadcast::kNone ? 2 : 1, t);
  };
  const std::vector<VectorChoice<EltwiseTiling>> fitting = TryChunks(
      c, budget, ChunkGroups(l.h, l.w, l.c, ChunkPixel(l)), on_chip,
      [&](const EltwiseTiling& t, uint32_t a) { return PlanEltwiseSram(l, t, a); }, emit, bound,
      costs);
  if (fitting.empty()) {
    EltwiseTiling minimal = on_chip;
    minimal.chunk = 1;
    return NoChunkFits(c, l.DisplayName(), PlanEltwiseSram(l, minimal, 1).sram_bytes, sram_budget);
  }
  return fitting[vector_search::Pick(costs)];
}

// The search of a one-input layer with a constant block (LUT, LNORM): `groups` of chunk sizes,
// `work` the vector unit's cycles for one chunk of that many elements, without the pipeline fill.
template <class Layer, class Tiling, class PlanFn, class EmitFn, class WorkFn>
StatusOr<VectorChoice<Tiling>> ChooseOneInputTiling(
    const spec::NpuConfig& c, const Layer& l, Tiling on_chip, uint64_t sram_budget,
    const std::vector<std::vector<uint64_t>>& groups, uint64_t constant_bytes,
    uint64_t out_element_bytes, PlanFn plan_fn, EmitFn emit_fn, WorkFn work, const char* unit) {
  const uint64_t budget = sram_budget ? sram_budget : c.sram().size_bytes();
  auto emit = [&](const Tiling& t, const VectorPlan& plan) {
    uint64_t dram = 0, sram = plan.sram_bytes;
    const uint32_t oe = uint32_t(out_element_bytes);
    const TensorPlace in = ReplayPlace(t.input_on_chip, &dram, &sram, l.Elements(), l.c);
    const TensorPlace out = ReplayPlace(t.output_on_chip, &dram, &sram, l.Elements() * oe, l.c, oe);
    return emit_fn(t, plan, in, out, ReplayPlace(false, &dram, &sram, constant_bytes, 1).addr);
  };
  auto bound = [&](const Tiling& t) {
    uint64_t cycles = 0;
    for (const ElementChunk& chunk : Chunks(l.Elements(), t.chunk)) cycles += work(chunk.count);
    return cycles;
  };
  std::vector<Replayed> costs;
  const std::vector<VectorChoice<Tiling>> fitting =
      TryChunks(c, budget, groups, on_chip, plan_fn, emit, bound, costs);
  if (fitting.empty()) {
    Tiling minimal = on_chip;
    minimal.chunk = groups.back().front();
    return NoChunkFits(c, l.DisplayName(), plan_fn(minimal, 1).sram_bytes, sram_budget, unit);
  }
  return fitting[vector_search::Pick(costs)];
}

StatusOr<VectorChoice<LutTiling>> SearchLutTiling(const spec::NpuConfig& c, const LutLayer& l,
                                                  LutTiling on_chip, uint64_t sram_budget) {
  return ChooseOneInputTiling(
      c, l, on_chip, sram_budget, ChunkGroups(l.h, l.w, l.c, 0), l.TableBytes(),
      l.OutputElementBytes(), [&](const LutTiling& t, uint32_t a) { return PlanLutSram(l, t, a); },
      [&](const LutTiling& t, const VectorPlan& plan, const TensorPlace& in, const TensorPlace& out,
          uint64_t table) {
        return EmitLut(l, t, plan, {in, out, table});
      },
      [&](uint64_t n) { return FillFreeCycles(c, n); }, "element");
}

}  // namespace

StatusOr<VectorChoice<NormTiling>> ChooseNormTiling(const spec::NpuConfig& c, const NormLayer& l,
                                                    NormTiling on_chip, uint64_t sram_budget) {
  NPU_TRY(CheckNormLayer(l));
  std::vector<std::vector<uint64_t>> groups = ChunkGroups(l.h, l.w, l.c, l.c);
  groups.pop_back();  // parts of one pixel: LNORM normalises whole ones
  return ChooseOneInputTiling(
      c, l, on_chip, sram_budget, groups, l.ParamBytes(), 1,
      [&](const NormTiling& t, uint32_t a) { return PlanNormSram(l, t, a); },
      [&](const NormTiling& t, const VectorPlan& plan, const TensorPlace& in,
          const TensorPlace& out, uint64_t params) {
        return EmitNorm(l, t, plan, {in, out, params});
      },
      [&](uint64_t n) {
        spec::Instruction lnorm{spec::Opcode::kLnorm, 0, 0,
                                spec::LnormArgs{.pixels = uint32_t(n / l.c), .channels = l.c}};
        return FillFreeCycles(c, spec::VectorLaneCycles(c, lnorm));
      },
      "pixel");
}

namespace {

StatusOr<VectorChoice<CopyTiling>> SearchCopyTiling(const spec::NpuConfig& c, const CopyLayer& l,
                                                    CopyTiling on_chip, uint64_t sram_budget) {
  const uint64_t budget = sram_budget ? sram_budget : c.sram().size_bytes();
  auto emit = [&](const CopyTiling& t, const VectorPlan& plan) {
    uint64_t dram = 0, sram = plan.sram_bytes;
    const uint32_t in_c = l.InputChannels();
    const CopyOperands ops{
        ReplayPlace(t.input_on_chip, &dram, &sram, uint64_t{l.h} * l.w * in_c, in_c),
        ReplayPlace(t.output_on_chip, &dram, &sram, l.Elements(), l.c)};
    return EmitCopy(l, t, plan, ops);
  };
  std::vector<Replayed> costs;
  auto no_bound = [](const CopyTiling&) { return uint64_t{0}; };  // no compute unit's bound
  const std::vector<std::vector<uint64_t>> groups = CopyChunkGroups(l, on_chip);
  const std::vector<VectorChoice<CopyTiling>> fitting = TryChunks(
      c, budget, groups, on_chip,
      [&](const CopyTiling& t, uint32_t a) { return PlanCopySram(l, t, a); }, emit, no_bound,
      costs);
  if (fitting.empty()) {
    CopyTiling minimal = on_chip;
    minimal.chunk = groups.back().front();
    return NoChunkFits(c, l.DisplayName(), PlanCopySram(l, minimal, 1).sram_bytes, sram_budget,
                       l.Shuffles() || on_chip.AnyOnChip() ? "pixel" : "element");
  }
  return fitting[vector_search::Pick(costs)];
}

}  // namespace

StatusOr<VectorChoice<GatherTiling>> ChooseGatherTiling(const spec::NpuConfig& c,
                                                        const GatherLayer& l,
                                                        uint64_t sram_budget) {
  NPU_TRY(CheckGatherLayer(l));
  const uint64_t budget = sram_budget ? sram_budget : c.sram().size_bytes();
  auto emit = [&](const GatherTiling& t, const VectorPlan& plan) {
    uint64_t dram = 0, sram = plan.sram_bytes;
    const GatherOperands ops{ReplayPlace(false, &dram, &sram, l.Elements(), 1),
                             ReplayPlace(false, &dram, &sram, l.Elements(), 1)};
    return EmitGather(l, t, plan, ops);
  };
  // Whole lines first; parts of one only if no number of lines fits.
  const uint64_t per_line = l.dims[l.dims.size() - 2];
  std::vector<std::vector<uint64_t>> groups(1);
  for (uint64_t n : Splits(l.Lines())) groups[0].push_back(n * per_line);
  groups.push_back(Splits(per_line));
  std::vector<Replayed> costs;
  auto no_bound = [](const GatherTiling&) { return uint64_t{0}; };  // no compute unit
  const std::vector<VectorChoice<GatherTiling>> fitting = TryChunks(
      c, budget, groups, GatherTiling{},
      [&](const GatherTiling& t, uint32_t a) { return PlanGatherSram(l, t, a); }, emit, no_bound,
      costs);
  if (fitting.empty()) {
    return NoChunkFits(c, l.DisplayName(), PlanGatherSram(l, GatherTiling{}, 1).sram_bytes,
                       sram_budget);
  }
  return fitting[vector_search::Pick(costs)];
}

// The searches remembered for the process, as the convolutions' (survey_memo.h): keyed by the
// config's bytes and everything of the layer and its context a search depends on, the shape,
// kinds and sizes, never the values (which change what is computed, not the instructions'
// timing). The same residual additions, tables and kept halos' copies come back in every strip,
// every residency the planner weighs and every kAuto variant (resnet50 on `edge`: 6,304 ELTWISE
// searches, 70 of them distinct).

StatusOr<VectorChoice<EltwiseTiling>> ChooseEltwiseTiling(const spec::NpuConfig& c,
                                                          const EltwiseLayer& l,
                                                          EltwiseTiling on_chip,
                                                          uint64_t sram_budget) {
  NPU_TRY(CheckEltwiseLayer(l));  // before memory: another layer's fields may be in range
  static Remembered<VectorChoice<EltwiseTiling>> choices;
  const std::string key =
      FieldsKey(c.SerializeAsString(),
                {int64_t(l.op), l.h, l.w, l.c, int64_t(l.broadcast), int64_t(l.b_constant.size()),
                 l.fp16, l.fp16_relu, l.int8_out, on_chip.a_on_chip, on_chip.b_on_chip,
                 on_chip.output_on_chip, int64_t(sram_budget)});
  return FindOrSearch(choices, key,
                      [&] { return SearchEltwiseTiling(c, l, on_chip, sram_budget); });
}

StatusOr<VectorChoice<LutTiling>> ChooseLutTiling(const spec::NpuConfig& c, const LutLayer& l,
                                                  LutTiling on_chip, uint64_t sram_budget) {
  NPU_TRY(CheckLutLayer(l));
  static Remembered<VectorChoice<LutTiling>> choices;
  const std::string key = FieldsKey(
      c.SerializeAsString(), {l.h, l.w, l.c, int64_t(l.table.size()), l.fp16_out,
                              on_chip.input_on_chip, on_chip.output_on_chip, int64_t(sram_budget)});
  return FindOrSearch(choices, key, [&] { return SearchLutTiling(c, l, on_chip, sram_budget); });
}

StatusOr<VectorChoice<CopyTiling>> ChooseCopyTiling(const spec::NpuConfig& c, const CopyLayer& l,
                                                    CopyTiling on_chip, uint64_t sram_budget) {
  NPU_TRY(CheckCopyLayer(l));
  static Remembered<VectorChoice<CopyTiling>> choices;
  const std::string key = FieldsKey(
      c.SerializeAsString(), {l.h, l.w, l.c, l.group, l.group_stride, l.group_offset,
                              on_chip.input_on_chip, on_chip.output_on_chip, int64_t(sram_budget)});
  return FindOrSearch(choices, key, [&] { return SearchCopyTiling(c, l, on_chip, sram_budget); });
}

}  // namespace npu::compiler
