// Layer emission: dispatch to the conv (also per batch index of a matrix product), pool, eltwise,
// lut, resize, copy and gather emitters with rebased buffers.
#include "compiler/network/layer_emission.h"

#include <map>

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

// One convolution of a layer and where its operands are.
struct ConvJob {
  const ConvLayer* conv;
  ConvOperands ops;
};

// The jobs one after the other with the layer's tiling and buffers; the accumulator slot
// rotation continues from job to job.
std::vector<spec::Instruction> EmitConvJobs(const std::vector<ConvJob>& jobs,
                                            const TilingChoice& choice, const LayerPlaces& places,
                                            uint32_t* acc_phase) {
  SramPlan plan = choice.plan;
  Rebase(plan, places.scratch_base);
  if (plan.held_bytes > 0) RebaseHeld(plan, places.held_base);
  std::vector<spec::Instruction> out;
  for (const ConvJob& job : jobs) {
    plan.acc_phase = *acc_phase;
    const std::vector<spec::Instruction> insns = EmitConv(*job.conv, choice.tiling, plan, job.ops);
    out.insert(out.end(), insns.begin(), insns.end());
    const TileGrid grid(*job.conv, choice.tiling);
    *acc_phase = static_cast<uint32_t>((*acc_phase + OutputGroups(grid)) % plan.acc.slots);
  }
  return out;
}

// One job per part, over its channel slices; the parts share the table slot.
std::vector<ConvJob> PartJobs(const std::vector<ConvPart>& parts, const LayerConstants& constants,
                              const LayerPlaces& places) {
  std::vector<ConvJob> jobs;
  for (size_t i = 0; i < parts.size(); ++i) {
    const ConvPart& part = parts[i];
    ConvOperands ops;
    ops.weights = places.constants + constants.weights[i];
    ops.params = places.constants + constants.params[i];
    if (constants.table) ops.table = places.constants + *constants.table;
    ops.load_table = i == 0;
    ops.input = places.inputs[0];
    ops.input.channel_offset += part.in_channel_offset;
    ops.output = places.output;
    ops.output.channel_offset += part.out_channel_offset;
    jobs.push_back({&part.conv, ops});
  }
  return jobs;
}

// Ids of the distinct values of `offsets`, in order of first appearance.
std::vector<uint32_t> Ids(const std::vector<uint64_t>& offsets) {
  std::map<uint64_t, uint32_t> id;
  std::vector<uint32_t> ids;
  for (uint64_t o : offsets) ids.push_back(id.try_emplace(o, uint32_t(id.size())).first->second);
  return ids;
}

// An operand's buffer with its matrices' row stride as the pixel stride.
TensorPlace Rows(const TensorPlace& value, uint64_t row_stride) {
  return {value.in_sram, value.addr, static_cast<uint32_t>(row_stride), 0};
}

// The product as one job of batched convolutions, a batch per output batch index at its
// matrices' offsets (batch indices sharing a matrix read the same bytes and, with equal ids, the
// same tiles); one set of ACT records.
std::vector<ConvJob> MatMulJob(const MatMulLayer& m, const ConvLayer& conv,
                               const LayerConstants& constants, const LayerPlaces& places) {
  NPU_CHECK(!places.inputs[1].in_sram);  // CanBeOnChip: b's blocks are LOADed from DRAM
  ConvOperands ops;
  ops.params = places.constants + constants.params[0];
  ops.input = Rows(places.inputs[0], m.a.row_stride);
  ops.b = Rows(places.inputs[1], m.b.row_stride);
  ops.output = Rows(places.output, m.y.row_stride);
  const std::vector<uint32_t> a_ids = Ids(m.a.offset), b_ids = Ids(m.b.offset);
  for (uint32_t i = 0; i < m.batches(); ++i) {
    ops.batches.push_back({m.a.offset[i], m.y.offset[i], m.b.offset[i], a_ids[i], b_ids[i]});
  }
  return {{&conv, ops}};
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
  } else if (const auto* norm = std::get_if<NormLayer>(&layer.work)) {
    c.params.push_back(Append(c.bytes, norm->ParamRecords()));
  } else if (const auto* e = std::get_if<EltwiseLayer>(&layer.work)) {
    if (e->b_is_constant()) c.b = Append(c.bytes, e->b_constant);
  } else if (const auto* r = std::get_if<ResizeLayer>(&layer.work)) {
    const auto& choice = std::get<VectorChoice<ResizeTiling>>(schedule.choice);
    c.taps = Append(c.bytes, PackResizeTaps(*r, choice.tiling));
  }
  if (const MatMulLayer* m = layer.matmul()) {
    NPU_ASSIGN_OR_RETURN(const std::vector<uint8_t> params, PackActParams(m->AsConv()));
    c.params.push_back(Append(c.bytes, params));
    return c;
  }
  const auto* parts = layer.conv_parts();
  if (parts == nullptr) return c;
  const ConvTiling& tiling = std::get<TilingChoice>(schedule.choice).tiling;
  for (const ConvPart& part : *parts) {
    if (tiling.held == HeldConstants::kReuses) {  // read where the first strip LOADed them
      c.weights.push_back(0);
      c.params.push_back(0);
      continue;
    }
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
    return EmitConvJobs(PartJobs(*parts, constants, places),
                        std::get<TilingChoice>(schedule.choice), places, acc_phase);
  }
  if (const MatMulLayer* m = layer.matmul()) {
    const ConvLayer conv = m->AsConv();
    return EmitConvJobs(MatMulJob(*m, conv, constants, places),
                        std::get<TilingChoice>(schedule.choice), places, acc_phase);
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
  if (const auto* norm = std::get_if<NormLayer>(&layer.work)) {
    VectorChoice<NormTiling> choice = std::get<VectorChoice<NormTiling>>(schedule.choice);
    Rebase(choice.plan, places.scratch_base);
    return EmitNorm(*norm, choice.tiling, choice.plan,
                    {places.inputs[0], places.output, places.constants + constants.params[0]});
  }
  if (const auto* resize = std::get_if<ResizeLayer>(&layer.work)) {
    VectorChoice<ResizeTiling> choice = std::get<VectorChoice<ResizeTiling>>(schedule.choice);
    Rebase(choice.plan, places.scratch_base);
    return EmitResize(*resize, choice.tiling, choice.plan,
                      {places.inputs[0], places.output, places.constants + *constants.taps});
  }
  if (const auto* copy = std::get_if<CopyLayer>(&layer.work)) {
    VectorChoice<CopyTiling> choice = std::get<VectorChoice<CopyTiling>>(schedule.choice);
    Rebase(choice.plan, places.scratch_base);
    return EmitCopy(*copy, choice.tiling, choice.plan, {places.inputs[0], places.output});
  }
  if (const auto* gather = std::get_if<GatherLayer>(&layer.work)) {
    VectorChoice<GatherTiling> choice = std::get<VectorChoice<GatherTiling>>(schedule.choice);
    Rebase(choice.plan, places.scratch_base);
    return EmitGather(*gather, choice.tiling, choice.plan, {places.inputs[0], places.output});
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
