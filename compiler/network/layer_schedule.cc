// Per-layer scheduling: dispatch to the conv (also matrix products), pool, eltwise, lut, layer
// norm, resize, copy and gather tiling searches.
#include "compiler/network/layer_schedule.h"

#include <algorithm>

#include <fmt/format.h>

namespace npu::compiler {
namespace {

TilingContext ConvContext(const LayerResidency& r, uint64_t budget) {
  return {budget, r.input[0], r.output};
}

EltwiseTiling EltwiseResidency(const LayerResidency& r) {
  EltwiseTiling t;
  t.a_on_chip = r.input[0];
  t.b_on_chip = r.input[1];
  t.output_on_chip = r.output;
  return t;
}

template <class Tiling>  // LutTiling, NormTiling
Tiling OneInputResidency(const LayerResidency& r) {
  Tiling t;
  t.input_on_chip = r.input[0];
  t.output_on_chip = r.output;
  return t;
}

CopyTiling CopyResidency(const LayerResidency& r) {
  CopyTiling t;
  t.input_on_chip = r.input[0];
  t.output_on_chip = r.output;
  return t;
}

// Whether a depthwise convolution (which may run as DWCONVs on the vector unit) reads `layer`'s
// output, or a channel shuffle's window (lower/shuffle_windows.h) reads the buffer it writes
// (shufflenet_v2's units write a concatenation's slice that the next unit's windows read).
// Other readers on the vector unit (a residual add, a pool) gained nothing from row bands and
// cost resnet50 3.4 % (4,305,230 -> 4,449,557 cycles, full-size export, default config).
bool ReadByDepthwise(const Network& net, const NetLayer& layer) {
  const int buffer = net.value(layer.output).buffer;
  return std::any_of(net.layers.begin(), net.layers.end(), [&](const NetLayer& reader) {
    if (reader.op == "channel_shuffle") {
      return std::any_of(reader.inputs.begin(), reader.inputs.end(),
                         [&](int v) { return net.value(v).buffer == buffer; });
    }
    return reader.op == "depthwise_conv2d" &&
           std::find(reader.inputs.begin(), reader.inputs.end(), layer.output) !=
               reader.inputs.end();
  });
}

// `preferred` with the residency the network decided, if it fits; else the search's choice.
StatusOr<TilingChoice> ConvChoice(const spec::NpuConfig& config, const ConvLayer& conv,
                                  TilingContext context, const ConvTiling* preferred,
                                  bool read_by_depthwise = false) {
  if (preferred != nullptr) {
    ConvTiling t = *preferred;
    t.input_on_chip = context.input_on_chip;
    t.output_on_chip = context.output_on_chip;
    t.input_pixel_stride = context.input_pixel_stride;
    t.held = HeldConstants::kNone;  // the on-chip plan's to decide (held_constants.h)
    StatusOr<TilingChoice> fitted = FitTiling(config, conv, t, context.sram_budget);
    if (fitted.ok()) return fitted;
  }
  context.output_read_by_depthwise = context.output_on_chip && read_by_depthwise;
  return TilingSurveyMemo(config).Choose(conv, context);
}

template <class Choice>
LayerSchedule Scheduled(Choice choice) {
  LayerSchedule s;
  s.scratch_bytes = choice.plan.sram_bytes;
  s.choice = std::move(choice);
  return s;
}

}  // namespace

TilingContext ConvLayerContext(const Network& net, const NetLayer& layer, const LayerResidency& r,
                               uint64_t budget) {
  TilingContext context = ConvContext(r, budget);
  const int input = layer.inputs[0];
  if (r.input[0] && net.PixelStride(input) != net.value(input).c) {
    context.input_pixel_stride = net.PixelStride(input);
  }
  return context;
}

std::string LayerSchedule::Describe() const {
  return std::visit(
      [](const auto& c) -> std::string {
        if constexpr (std::is_same_v<std::decay_t<decltype(c)>, CpuChoice>) {
          return "on the control core";
        } else {
          return ToString(c.tiling);
        }
      },
      choice);
}

bool CanBeOnChip(const Network& net, const NetLayer& layer, int index) {
  if (layer.on_cpu() || std::holds_alternative<GatherLayer>(layer.work)) return false;
  const int id = index < 0 ? layer.output : layer.inputs[index];
  const ActivationValue& v = net.value(id);
  // A copy's LUTs read and write any channel slice of int8 pixels whose stride fits their fields.
  if (std::holds_alternative<CopyLayer>(layer.work)) {
    return !v.fp16 && net.PixelStride(id) <= kMaxLutPixelStride;
  }
  if (v.channel_offset != 0 || net.PixelStride(id) != v.c) {
    if (index < 0) {
      return layer.conv_parts() != nullptr || std::holds_alternative<PoolLayer>(layer.work);
    }
    // DWCONV reads one with its in_pixel_stride (the tiling search keeps such an input to
    // tilings on the vector unit, or fails, and then the input stays in DRAM).
    const auto* parts = layer.conv_parts();
    return index == 0 && parts != nullptr && parts->size() == 1 &&
           parts->front().conv.depthwise && parts->front().in_channel_offset == 0;
  }
  // A matrix product's b is LOADed block by block from DRAM; its a is read in place only with
  // dense rows (not through a transpose of heads); its output is written in place with its row
  // stride as ACT's out_pixel_stride (16 bits).
  if (const MatMulLayer* m = layer.matmul()) {
    return index < 0 ? m->y.row_stride <= 65535 : index == 0 && m->a_rows_dense();
  }
  const auto* parts = layer.conv_parts();
  if (parts == nullptr || index < 0) return true;
  return parts->size() == 1 && parts->front().in_channel_offset == 0;
}

StatusOr<LayerSchedule> ScheduleLayer(const spec::NpuConfig& config, const Network& net,
                                      const NetLayer& layer, const LayerResidency& residency,
                                      uint64_t sram_budget, const ConvTiling* preferred) {
  if (layer.on_cpu()) {
    LayerSchedule s;
    s.choice = CpuChoice{};
    return s;
  }
  if (const auto* parts = layer.conv_parts()) {
    NPU_ASSIGN_OR_RETURN(TilingChoice choice,
                         ConvChoice(config, parts->front().conv,
                                    ConvLayerContext(net, layer, residency, sram_budget),
                                    preferred, ReadByDepthwise(net, layer)));
    return Scheduled(std::move(choice));
  }
  if (const MatMulLayer* matmul = layer.matmul()) {
    NPU_ASSIGN_OR_RETURN(TilingChoice choice,
                         ConvChoice(config, matmul->AsConv(), ConvContext(residency, sram_budget),
                                    preferred));
    return Scheduled(std::move(choice));
  }
  if (const auto* pool = std::get_if<PoolLayer>(&layer.work)) {
    NPU_ASSIGN_OR_RETURN(auto choice,
                         ChoosePoolTiling(config, *pool, ConvContext(residency, sram_budget)));
    return Scheduled(std::move(choice));
  }
  if (const auto* lut = std::get_if<LutLayer>(&layer.work)) {
    NPU_ASSIGN_OR_RETURN(auto choice,
                         ChooseLutTiling(config, *lut, OneInputResidency<LutTiling>(residency),
                                         sram_budget));
    return Scheduled(std::move(choice));
  }
  if (const auto* norm = std::get_if<NormLayer>(&layer.work)) {
    NPU_ASSIGN_OR_RETURN(auto choice,
                         ChooseNormTiling(config, *norm, OneInputResidency<NormTiling>(residency),
                                          sram_budget));
    return Scheduled(std::move(choice));
  }
  if (const auto* resize = std::get_if<ResizeLayer>(&layer.work)) {
    NPU_ASSIGN_OR_RETURN(auto choice,
                         ChooseResizeTiling(config, *resize, ConvContext(residency, sram_budget)));
    return Scheduled(std::move(choice));
  }
  if (const auto* copy = std::get_if<CopyLayer>(&layer.work)) {
    NPU_ASSIGN_OR_RETURN(auto choice, ChooseCopyTiling(config, *copy, CopyResidency(residency),
                                                       sram_budget));
    return Scheduled(std::move(choice));
  }
  if (const auto* gather = std::get_if<GatherLayer>(&layer.work)) {
    NPU_ASSIGN_OR_RETURN(auto choice, ChooseGatherTiling(config, *gather, sram_budget));
    return Scheduled(std::move(choice));
  }
  NPU_ASSIGN_OR_RETURN(auto choice, ChooseEltwiseTiling(config, std::get<EltwiseLayer>(layer.work),
                                                        EltwiseResidency(residency), sram_budget));
  return Scheduled(std::move(choice));
}

StatusOr<TilingOutlook> SurveyLayer(const spec::NpuConfig& config, const Network& net,
                                    const NetLayer& layer, const LayerResidency& residency,
                                    uint64_t sram_budget, TilingSurveyMemo& memo) {
  if (layer.on_cpu()) return TilingOutlook{0, 0};
  if (const auto* parts = layer.conv_parts()) {
    return memo.Survey(parts->front().conv,
                       ConvLayerContext(net, layer, residency, sram_budget));
  }
  if (const MatMulLayer* matmul = layer.matmul()) {
    return memo.Survey(matmul->AsConv(), ConvContext(residency, sram_budget));
  }
  NPU_ASSIGN_OR_RETURN(const LayerSchedule s,
                       ScheduleLayer(config, net, layer, residency, sram_budget));
  return TilingOutlook{0, s.scratch_bytes};
}

}  // namespace npu::compiler
