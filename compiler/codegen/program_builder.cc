// Program assembly.
#include "compiler/codegen/program_builder.h"

#include <fmt/format.h>

#include "compiler/codegen/program_parts.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"

namespace npu::compiler {
namespace {

uint64_t AlignUp(uint64_t v) { return (v + kDramAlign - 1) / kDramAlign * kDramAlign; }

spec::TensorDesc Tensor(const std::string& name, uint32_t h, uint32_t w, uint32_t c,
                        uint64_t offset, uint64_t bytes, float scale, int32_t zero_point) {
  return Int8Tensor(name, {1u, h, w, c}, offset, bytes, scale, zero_point);
}

}  // namespace

ConvOperands PlaceData(const ConvLayer& layer) {
  ConvOperands d;
  d.weights = 0;
  d.params = AlignUp(d.weights + layer.weights.size());
  d.table = d.params + uint64_t{layer.out_c} * spec::kActParamBytes;  // ends the params segment
  d.input = DramTensor(AlignUp(d.table + layer.table.size()), layer.in_c);
  const uint64_t batches = layer.batches;
  d.output = DramTensor(AlignUp(d.input.addr + batches * layer.InputBytes()), layer.out_c);
  if (layer.activation_weights) {
    d.b = DramTensor(AlignUp(d.output.addr + batches * layer.OutputBytes()),
                     layer.weights_nk ? layer.in_c : layer.out_c);  // dense rows of b
  }
  return d;
}

DramLayout PlanDram(const ConvLayer& layer, uint64_t instruction_count) {
  DramLayout l;
  l.instructions = 0;
  l.instruction_bytes = instruction_count * spec::kInsnBytes;
  l.data_base = AlignUp(l.instruction_bytes);
  l.data = PlaceData(layer);
  l.weight_bytes = layer.weights.size();
  l.param_bytes = uint64_t{layer.out_c} * spec::kActParamBytes + layer.table.size();
  l.input_bytes = layer.batches * layer.InputBytes();
  l.output_bytes = layer.batches * layer.OutputBytes();
  l.end = AlignUp(l.data_base + (layer.activation_weights
                                     ? l.data.b.addr + layer.batches * layer.WeightBytes()
                                     : l.data.output.addr + l.output_bytes));
  return l;
}

uint64_t DramLimitBytes(const spec::NpuConfig& config) {
  return std::min<uint64_t>(config.dram().size_bytes(), uint64_t{1} << 32);
}

Status CheckDramFits(const spec::NpuConfig& config, const ConvLayer& layer,
                     uint64_t instruction_count) {
  const uint64_t needed = PlanDram(layer, instruction_count).end;
  if (needed <= DramLimitBytes(config)) return Status::Ok();
  return ResourceExhausted(fmt::format(
      "layer '{}': the DRAM image needs {} bytes ({} instructions, weights, parameters, input, "
      "output); the config's DRAM (and 32-bit offsets) allow {}",
      layer.DisplayName(), needed, instruction_count, DramLimitBytes(config)));
}

void RelocateDram(std::vector<spec::Instruction>& insns, uint64_t delta) {
  for (spec::Instruction& insn : insns) {
    if (auto* dma = std::get_if<spec::DmaArgs>(&insn.args)) {
      dma->dram_offset = static_cast<uint32_t>(dma->dram_offset + delta);
    }
  }
}

StatusOr<std::string> EncodeInstructions(const std::vector<spec::Instruction>& insns) {
  std::string words;
  words.reserve(insns.size() * spec::kInsnBytes);
  for (size_t i = 0; i < insns.size(); ++i) {
    StatusOr<spec::InsnWord> word = spec::Encode(insns[i]);
    if (!word.ok()) return word.status().WithContext(fmt::format("instruction #{}", i));
    words.append(reinterpret_cast<const char*>(word->data()), word->size());
  }
  return words;
}

StatusOr<spec::Program> BuildProgram(const spec::NpuConfig& config, const ConvLayer& layer,
                                     const std::vector<spec::Instruction>& insns,
                                     const DramLayout& dl, std::vector<uint8_t> weights,
                                     std::vector<uint8_t> params, const LayerSummary& summary) {
  const std::string name = layer.DisplayName();
  NPU_TRY(CheckDramFits(config, layer, insns.size()));
  NPU_ASSIGN_OR_RETURN(std::string words, EncodeInstructions(insns));
  spec::Program p;
  spec::SetArchitecture(p, config);
  p.set_model_name(name);
  p.set_instructions(std::move(words));
  spec::SetSingleNpuRun(p);
  p.set_instruction_offset(static_cast<uint32_t>(dl.instructions));
  p.set_dram_bytes(static_cast<uint32_t>(dl.end));
  const uint64_t base = dl.data_base;
  AddSegment(p, name + ".weights", base + dl.data.weights, weights);
  AddSegment(p, name + ".params", base + dl.data.params, params);
  *p.add_inputs() = Tensor("input", layer.in_h, layer.in_w, layer.in_c, base + dl.data.input.addr,
                           dl.input_bytes, layer.input_scale, layer.input_zero_point);
  *p.add_outputs() =
      Tensor("output", layer.OutH(), layer.OutW(), layer.out_c, base + dl.data.output.addr,
             dl.output_bytes, layer.output_scale, layer.output_zero_point);
  AddRegion(p, "instructions", "instructions", dl.instructions, dl.instruction_bytes);
  AddRegion(p, name + ".weights", "constants", base + dl.data.weights, dl.weight_bytes);
  AddRegion(p, name + ".params", "constants", base + dl.data.params, dl.param_bytes);
  AddRegion(p, "input", "input", base + dl.data.input.addr, dl.input_bytes);
  AddRegion(p, "output", "output", base + dl.data.output.addr, dl.output_bytes);
  spec::LayerInfo* info = p.add_layers();
  info->set_name(name);
  info->set_op(layer.OpName());
  info->set_first_instruction(0);
  info->set_instruction_count(static_cast<uint32_t>(insns.size()));
  info->set_macs(layer.Macs());
  info->set_predicted_cycles(summary.predicted_cycles);
  info->set_predicted_dram_bytes(summary.predicted_dram_bytes);
  info->set_tiling(summary.tiling);
  info->set_peak_sram_bytes(static_cast<uint32_t>(summary.peak_sram_bytes));
  info->set_shape(fmt::format("{}x{}x{} -> {}x{}x{}, {}x{}/{}", layer.in_h, layer.in_w, layer.in_c,
                              layer.OutH(), layer.OutW(), layer.out_c, layer.kernel_h,
                              layer.kernel_w, layer.stride_h));
  info->set_weight_bytes(dl.weight_bytes + dl.param_bytes);
  return p;
}

}  // namespace npu::compiler
