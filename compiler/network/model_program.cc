// Per-layer predictions and the program description.
#include "compiler/network/model_program.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/codegen/program_builder.h"
#include "compiler/codegen/program_parts.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "hw/spec/cpu_ops.h"
#include "hw/spec/driver_steps.h"
#include "hw/spec/layer_attribution.h"
#include "hw/spec/timing_model.h"

namespace npu::compiler {
namespace {

spec::TensorDesc Describe(const ActivationValue& v, uint64_t offset) {
  const std::vector<uint32_t> shape(v.shape.begin(), v.shape.end());
  spec::TensorDesc t = Int8Tensor(v.name, shape, offset, v.bytes(), v.scale, v.zero_point);
  if (v.fp16) t.set_dtype(spec::FLOAT16);  // no scale: the host rounds to and reads FP16
  return t;
}

void AddLayerInfo(spec::Program& p, const ModelLayer& l) {
  spec::LayerInfo* info = p.add_layers();
  info->set_name(l.name);
  info->set_op(l.op);
  info->set_first_instruction(l.first_instruction);
  info->set_instruction_count(l.instruction_count);
  if (!l.instructions.empty() &&
      l.instructions.back() + 1 - l.first_instruction != l.instruction_count) {
    for (uint32_t k : l.instructions) info->add_instructions(k);
  }
  info->set_macs(l.macs);
  info->set_int4_macs(l.int4_macs);
  info->set_fp16_macs(l.fp16_macs);
  info->set_predicted_cycles(l.predicted_cycles);
  info->set_predicted_dram_bytes(l.predicted_dram_read_bytes + l.predicted_dram_write_bytes);
  info->set_tiling(l.note.empty() ? l.tiling : l.tiling + "; " + l.note);
  info->set_peak_sram_bytes(static_cast<uint32_t>(l.sram_in_use));
  info->set_shape(l.shape);
  info->set_weight_bytes(l.constant_bytes);
  info->set_engine(l.on_cpu ? "cpu" : "npu");
  info->set_fused_group(l.fused_group);
  info->set_strip(l.strip);
  info->set_channel_group(l.channel_group);
  info->set_channel_part(l.channel_part);
  info->set_recomputed_macs(l.recomputed_macs);
  info->set_step(l.step);
}

}  // namespace

uint64_t PredictCpuStep(const spec::NpuConfig& c, const spec::CpuOp& op) {
  uint64_t cycles = spec::kAccessesAfterTimerSample * spec::kRegisterAccessCycles;
  for (const spec::TensorDesc& t : op.inputs()) {
    if (t.dtype() != spec::DTYPE_UNSPECIFIED) cycles += spec::DramTransferCycles(c, t.size_bytes());
  }
  const StatusOr<std::vector<spec::CpuWorkItem>> work = spec::CpuOpWork(op);
  NPU_CHECK(work.ok());  // the compiler only makes ops its kernels take
  cycles += spec::CpuOpNpuCycles(c, *work);
  for (const spec::TensorDesc& t : op.outputs()) {
    cycles += spec::DramTransferCycles(c, t.size_bytes());
  }
  return cycles;
}

namespace {

// The predicted timeline: when each instruction and each step ends, from the first step's start.
struct Predicted {
  std::vector<uint64_t> insn_end;  // per instruction
  std::vector<uint64_t> step_end;  // per step
};

StatusOr<Predicted> PredictSteps(const spec::NpuConfig& c, CompiledModel& m) {
  Predicted p{std::vector<uint64_t>(m.instructions.size(), 0), {}};
  m.cost = CostEstimate{};
  m.predicted_cpu_cycles = 0;
  uint64_t now = 0;
  for (size_t i = 0; i < m.steps.size(); ++i) {
    const spec::Step& step = m.steps[i];
    if (i > 0) now += spec::StepHandoffCycles(m.steps[i - 1].has_npu(), step.has_npu());
    if (step.has_cpu()) {
      const uint64_t cycles = PredictCpuStep(c, step.cpu());
      for (const spec::TensorDesc& t : step.cpu().inputs())
        m.cost.dram_read_bytes += t.size_bytes();
      for (const spec::TensorDesc& t : step.cpu().outputs()) {
        m.cost.dram_write_bytes += t.size_bytes();
      }
      m.predicted_cpu_cycles += cycles;
      now += cycles;
    } else {
      const uint32_t first = step.npu().first_instruction();
      const std::vector<spec::Instruction> insns(
          m.instructions.begin() + first,
          m.instructions.begin() + first + step.npu().instruction_count());
      std::vector<spec::InsnRecord> timeline;
      // Model programs put the instructions at DRAM offset 0 (BuildModelProgram).
      NPU_ASSIGN_OR_RETURN(const CostEstimate run,
                           PredictCost(c, insns, &timeline,
                                       {.instruction_offset = uint64_t{first} * spec::kInsnBytes}));
      for (size_t k = 0; k < timeline.size(); ++k) p.insn_end[first + k] = now + timeline[k].end;
      m.cost.dram_read_bytes += run.dram_read_bytes;
      m.cost.dram_write_bytes += run.dram_write_bytes;
      m.cost.macs += run.macs;
      for (int q = 0; q < spec::kNumQueues; ++q) m.cost.busy_cycles[q] += run.busy_cycles[q];
      now += run.cycles;
    }
    p.step_end.push_back(now);
  }
  m.cost.cycles = now;
  return p;
}

// A layer's predicted latest end and DRAM bytes (hw/spec/layer_attribution.h's rules, as the run
// report measures them).
uint64_t PredictLayer(const CompiledModel& m, const Predicted& p, ModelLayer& l) {
  uint64_t latest_end = 0;
  spec::DramTraffic traffic;
  if (l.on_cpu) {
    traffic = spec::CpuOpTraffic(m.steps[l.step].cpu());
    latest_end = p.step_end[l.step];
  } else {
    for (uint32_t k : l.instructions) {
      latest_end = std::max(latest_end, p.insn_end[k]);
      spec::AddInstructionTraffic(m.instructions[k], traffic);
    }
  }
  l.predicted_dram_read_bytes = traffic.read_bytes;
  l.predicted_dram_write_bytes = traffic.write_bytes;
  return latest_end;
}

}  // namespace

Status PredictModel(const spec::NpuConfig& c, CompiledModel& m) {
  NPU_ASSIGN_OR_RETURN(const Predicted p, PredictSteps(c, m));
  uint64_t io_bytes_first = 0, io_bytes_last = 0;
  for (int v : m.network.inputs) io_bytes_first += m.network.value(v).bytes();
  for (int v : m.network.outputs) io_bytes_last += m.network.value(v).bytes();
  m.min_dram_bytes = io_bytes_first + io_bytes_last;
  m.roofline_cycles = 0;
  std::vector<uint64_t> latest_ends;
  for (size_t i = 0; i < m.layers.size(); ++i) {
    ModelLayer& l = m.layers[i];
    latest_ends.push_back(PredictLayer(m, p, l));
    const uint64_t constants = spec::LeastConstantBytes(l.constant_bytes, l.fused_group, l.strip);
    uint64_t min_bytes = constants;
    if (i == 0) min_bytes += io_bytes_first;
    if (i + 1 == m.layers.size()) min_bytes += io_bytes_last;
    l.roofline_cycles = spec::LayerRooflineCycles(
        c, spec::NetworkMacSlots(c, l.macs, l.int4_macs, l.fp16_macs, l.recomputed_macs),
        min_bytes);
    m.roofline_cycles += l.roofline_cycles;
    m.min_dram_bytes += constants;
  }
  const std::vector<uint64_t> cycles = spec::PartitionCycles(latest_ends, m.cost.cycles);
  for (size_t i = 0; i < m.layers.size(); ++i) m.layers[i].predicted_cycles = cycles[i];
  return Status::Ok();
}

StatusOr<spec::Program> BuildModelProgram(const spec::NpuConfig& config, const CompiledModel& m,
                                          const std::vector<LayerConstants>& constants,
                                          const ModelDramPlan& dram, uint64_t data_base) {
  NPU_ASSIGN_OR_RETURN(std::string words, EncodeInstructions(m.instructions));
  spec::Program p;
  spec::SetArchitecture(p, config);
  p.set_model_name(m.network.name);
  p.set_instructions(std::move(words));
  p.set_instruction_offset(0);
  p.set_dram_bytes(static_cast<uint32_t>(data_base + dram.end));
  AddRegion(p, "instructions", "instructions", 0, m.instructions.size() * spec::kInsnBytes);
  for (size_t i = 0; i < constants.size(); ++i) {
    if (constants[i].bytes.empty()) continue;
    const std::string name = m.network.layers[i].name + ".constants";
    spec::Segment* s = p.add_constants();
    s->set_name(name);
    s->set_dram_offset(static_cast<uint32_t>(data_base + dram.constants[i]));
    s->set_data(std::string(constants[i].bytes.begin(), constants[i].bytes.end()));
    AddRegion(p, name, "constants", data_base + dram.constants[i], constants[i].bytes.size());
  }
  AddRegion(p, "activation arena", "activations", data_base + dram.arena, dram.arena_bytes);
  for (int v : m.network.inputs) {
    const ActivationValue& value = m.network.value(v);
    *p.add_inputs() = Describe(value, data_base + dram.buffers[value.buffer] + value.byte_offset);
    AddRegion(p, value.name, "input", data_base + dram.buffers[value.buffer], value.bytes());
  }
  for (int v : m.network.outputs) {
    const ActivationValue& value = m.network.value(v);
    *p.add_outputs() = Describe(value, data_base + dram.buffers[value.buffer] + value.byte_offset);
    AddRegion(p, value.name, "output", data_base + dram.buffers[value.buffer], value.bytes());
  }
  for (const ModelLayer& l : m.layers) AddLayerInfo(p, l);
  for (const spec::Step& step : m.steps) *p.add_steps() = step;
  return p;
}

}  // namespace npu::compiler
