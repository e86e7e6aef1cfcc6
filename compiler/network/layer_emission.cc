// Layer emission: dispatch to the conv, pool and add emitters with rebased buffers.
#include "compiler/network/layer_emission.h"

#include "compiler/codegen/constants.h"
#include "compiler/schedule/conv_emitter.h"
#include "compiler/schedule/vector_emitter.h"
#include "compiler/tiling/tile_grid.h"

namespace npu::compiler {
namespace {

constexpr uint64_t kConstantAlign = 64;

void Append(std::vector<uint8_t>& to, const std::vector<uint8_t>& bytes,
            std::vector<uint64_t>& at) {
  to.resize((to.size() + kConstantAlign - 1) / kConstantAlign * kConstantAlign);
  at.push_back(to.size());
  to.insert(to.end(), bytes.begin(), bytes.end());
}

std::vector<spec::Instruction> EmitConvParts(const std::vector<ConvPart>& parts,
                                             const TilingChoice& choice,
                                             const LayerConstants& constants,
                                             const LayerPlaces& places, uint32_t* acc_phase) {
  SramPlan plan = choice.plan;
  Rebase(plan, places.scratch_base);
  std::vector<spec::Instruction> out;
  for (size_t i = 0; i < parts.size(); ++i) {
    const ConvPart& part = parts[i];
    plan.acc_phase = *acc_phase;
    ConvOperands ops;
    ops.weights = places.constants + constants.weights[i];
    ops.params = places.constants + constants.params[i];
    ops.input = places.inputs[0];
    ops.input.channel_offset = part.in_channel_offset;
    ops.output = places.output;
    ops.output.channel_offset = part.out_channel_offset;
    const std::vector<spec::Instruction> insns = EmitConv(part.conv, choice.tiling, plan, ops);
    out.insert(out.end(), insns.begin(), insns.end());
    const TileGrid grid(part.conv, choice.tiling);
    *acc_phase = static_cast<uint32_t>((*acc_phase + OutputGroups(grid)) % plan.acc.slots);
  }
  return out;
}

}  // namespace

StatusOr<LayerConstants> PackLayerConstants(const NetLayer& layer, const LayerSchedule& schedule) {
  LayerConstants c;
  if (const CpuLayer* cpu = layer.cpu()) {
    for (const CpuConstant& k : cpu->constants) Append(c.bytes, k.bytes, c.cpu);
    return c;
  }
  const auto* parts = layer.conv_parts();
  if (parts == nullptr) return c;
  const ConvTiling& tiling = std::get<TilingChoice>(schedule.choice).tiling;
  for (const ConvPart& part : *parts) {
    Append(c.bytes, PackWeights(part.conv, TileGrid(part.conv, tiling)), c.weights);
    NPU_ASSIGN_OR_RETURN(const std::vector<uint8_t> params, PackActParams(part.conv));
    Append(c.bytes, params, c.params);
  }
  return c;
}

std::vector<spec::Instruction> EmitLayer(const NetLayer& layer, const LayerSchedule& schedule,
                                         const LayerConstants& constants, const LayerPlaces& places,
                                         uint32_t* acc_phase) {
  if (layer.on_cpu()) return {};
  if (const auto* parts = layer.conv_parts()) {
    return EmitConvParts(*parts, std::get<TilingChoice>(schedule.choice), constants, places,
                         acc_phase);
  }
  if (const auto* pool = std::get_if<PoolLayer>(&layer.work)) {
    VectorChoice<PoolTiling> choice = std::get<VectorChoice<PoolTiling>>(schedule.choice);
    Rebase(choice.plan, places.scratch_base);
    return EmitPool(*pool, choice.tiling, choice.plan, {places.inputs[0], places.output});
  }
  VectorChoice<AddTiling> choice = std::get<VectorChoice<AddTiling>>(schedule.choice);
  Rebase(choice.plan, places.scratch_base);
  return EmitAdd(std::get<AddLayer>(layer.work), choice.tiling, choice.plan,
                 {places.inputs[0], places.inputs[1], places.output});
}

}  // namespace npu::compiler
