// Layer emission: dispatch to the conv, pool, eltwise, lut and resize emitters with rebased
// buffers.
#include "compiler/network/layer_emission.h"

#include "compiler/codegen/constants.h"
#include "compiler/schedule/conv_emitter.h"
#include "compiler/schedule/eltwise_emitter.h"
#include "compiler/schedule/resize_emitter.h"
#include "compiler/schedule/vector_emitter.h"
#include "compiler/tiling/tile_grid.h"

namespace npu::compiler {
namespace {

constexpr uint64_t kConstantAlign = 64;

// Appends `bytes` at the next aligned offset of `to`; returns that offset.
template <class Bytes>
uint64_t Append(std::vector<uint8_t>& to, const Bytes& bytes) {
  to.resize((to.size() + kConstantAlign - 1) / kConstantAlign * kConstantAlign);
  const uint64_t at = to.size();
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  to.insert(to.end(), data, data + bytes.size());
  return at;
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
    if (constants.table) ops.table = places.constants + *constants.table;
    ops.load_table = i == 0;  // the parts share the plan's table slot
    ops.input = places.inputs[0];
    ops.input.channel_offset += part.in_channel_offset;
    ops.output = places.output;
    ops.output.channel_offset += part.out_channel_offset;
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
    for (const CpuConstant& k : cpu->constants) c.cpu.push_back(Append(c.bytes, k.bytes));
    return c;
  }
  if (const auto* lut = std::get_if<LutLayer>(&layer.work)) {
    c.table = Append(c.bytes, lut->table);
  } else if (const auto* e = std::get_if<EltwiseLayer>(&layer.work)) {
    if (e->b_is_constant()) c.b = Append(c.bytes, e->b_constant);
  } else if (const auto* r = std::get_if<ResizeLayer>(&layer.work)) {
    const auto& choice = std::get<VectorChoice<ResizeTiling>>(schedule.choice);
    c.taps = Append(c.bytes, PackResizeTaps(*r, choice.tiling));
  }
  const auto* parts = layer.conv_parts();
  if (parts == nullptr) return c;
  const ConvTiling& tiling = std::get<TilingChoice>(schedule.choice).tiling;
  for (const ConvPart& part : *parts) {
    c.weights.push_back(Append(c.bytes, PackWeights(part.conv, TileGrid(part.conv, tiling))));
    NPU_ASSIGN_OR_RETURN(const std::vector<uint8_t> params, PackActParams(part.conv));
    c.params.push_back(Append(c.bytes, params));
  }
  if (!parts->front().conv.table.empty()) c.table = Append(c.bytes, parts->front().conv.table);
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
  if (const auto* lut = std::get_if<LutLayer>(&layer.work)) {
    VectorChoice<LutTiling> choice = std::get<VectorChoice<LutTiling>>(schedule.choice);
    Rebase(choice.plan, places.scratch_base);
    return EmitLut(*lut, choice.tiling, choice.plan,
                   {places.inputs[0], places.output, places.constants + *constants.table});
  }
  if (const auto* resize = std::get_if<ResizeLayer>(&layer.work)) {
    VectorChoice<ResizeTiling> choice = std::get<VectorChoice<ResizeTiling>>(schedule.choice);
    Rebase(choice.plan, places.scratch_base);
    return EmitResize(*resize, choice.tiling, choice.plan,
                      {places.inputs[0], places.output, places.constants + *constants.taps});
  }
  const EltwiseLayer& eltwise = std::get<EltwiseLayer>(layer.work);
  VectorChoice<EltwiseTiling> choice = std::get<VectorChoice<EltwiseTiling>>(schedule.choice);
  Rebase(choice.plan, places.scratch_base);
  const TensorPlace b = eltwise.b_is_constant()
                            ? DramTensor(places.constants + *constants.b, eltwise.c)
                            : places.inputs[1];
  return EmitEltwise(eltwise, choice.tiling, choice.plan, {places.inputs[0], b, places.output});
}

}  // namespace npu::compiler
