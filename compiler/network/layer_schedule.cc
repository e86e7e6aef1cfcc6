// Per-layer scheduling: dispatch to the conv, pool and add tiling searches.
#include "compiler/network/layer_schedule.h"

#include <fmt/format.h>

namespace npu::compiler {
namespace {

TilingContext ConvContext(const LayerResidency& r, uint64_t budget) {
  return {budget, r.input[0], r.output};
}

AddTiling AddResidency(const LayerResidency& r) {
  AddTiling t;
  t.a_on_chip = r.input[0];
  t.b_on_chip = r.input[1];
  t.output_on_chip = r.output;
  return t;
}

}  // namespace

std::string LayerSchedule::Describe() const {
  if (const auto* conv = std::get_if<TilingChoice>(&choice)) return ToString(conv->tiling);
  if (const auto* pool = std::get_if<VectorChoice<PoolTiling>>(&choice)) {
    return ToString(pool->tiling);
  }
  if (std::holds_alternative<CpuChoice>(choice)) return "on the control core";
  return ToString(std::get<VectorChoice<AddTiling>>(choice).tiling);
}

bool CanBeOnChip(const NetLayer& layer, int index) {
  if (layer.on_cpu()) return false;
  const auto* parts = layer.conv_parts();
  if (parts == nullptr || index < 0) return true;
  return parts->size() == 1 && parts->front().in_channel_offset == 0;
}

StatusOr<LayerSchedule> ScheduleLayer(const spec::NpuConfig& config, const Network& net,
                                      const NetLayer& layer, const LayerResidency& residency,
                                      uint64_t sram_budget) {
  LayerSchedule s;
  if (layer.on_cpu()) {
    s.choice = CpuChoice{};
  } else if (const auto* parts = layer.conv_parts()) {
    NPU_ASSIGN_OR_RETURN(TilingChoice choice, ChooseTiling(config, parts->front().conv,
                                                           ConvContext(residency, sram_budget)));
    s.scratch_bytes = choice.plan.sram_bytes;
    s.choice = std::move(choice);
  } else if (const auto* pool = std::get_if<PoolLayer>(&layer.work)) {
    NPU_ASSIGN_OR_RETURN(auto choice,
                         ChoosePoolTiling(config, *pool, ConvContext(residency, sram_budget)));
    s.scratch_bytes = choice.plan.sram_bytes;
    s.choice = std::move(choice);
  } else {
    NPU_ASSIGN_OR_RETURN(auto choice, ChooseAddTiling(config, std::get<AddLayer>(layer.work),
                                                      AddResidency(residency), sram_budget));
    s.scratch_bytes = choice.plan.sram_bytes;
    s.choice = std::move(choice);
  }
  return s;
}

StatusOr<TilingOutlook> SurveyLayer(const spec::NpuConfig& config, const Network& net,
                                    const NetLayer& layer, const LayerResidency& residency,
                                    uint64_t sram_budget) {
  if (layer.on_cpu()) return TilingOutlook{0, 0};
  if (const auto* parts = layer.conv_parts()) {
    return SurveyTilings(config, parts->front().conv, ConvContext(residency, sram_budget));
  }
  NPU_ASSIGN_OR_RETURN(const LayerSchedule s,
                       ScheduleLayer(config, net, layer, residency, sram_budget));
  return TilingOutlook{0, s.scratch_bytes};
}

}  // namespace npu::compiler
