// The single-layer compile pipeline.
#include "compiler/compile.h"

#include <fmt/format.h>

#include "compiler/codegen/constants.h"
#include "compiler/codegen/program_builder.h"
#include "compiler/schedule/conv_emitter.h"
#include "compiler/schedule/dependencies.h"
#include "compiler/schedule/token_check.h"
#include "compiler/tiling/tile_grid.h"
#include "compiler/tiling/tiling_search.h"
#include "hw/spec/config.h"

namespace npu::compiler {
namespace {

StatusOr<TilingChoice> Tile(const spec::NpuConfig& config, const ConvLayer& layer,
                            const CompileOptions& options) {
  if (!options.tiling) return ChooseTiling(config, layer);
  StatusOr<TilingChoice> forced = FitTiling(config, layer, *options.tiling);
  if (!forced.ok()) {
    return forced.status().WithContext(
        fmt::format("layer '{}': forced tiling", layer.DisplayName()));
  }
  return forced;
}

}  // namespace

StatusOr<CompiledLayer> CompileConvLayerDetailed(const spec::NpuConfig& config,
                                                 const ConvLayer& layer,
                                                 const CompileOptions& options) {
  NPU_TRY(spec::Validate(config));
  NPU_TRY(CheckLayer(layer));
  if (layer.activation_weights || layer.batches > 1) {
    return InvalidArgument(fmt::format(
        "layer '{}': weights from an activation (another layer's output) and batches of "
        "operands are compiled in a network (CompileNetwork)",
        layer.DisplayName()));
  }
  NPU_TRY(CheckDramFits(config, layer, 0));  // before tiling sizes anything by the tensors
  NPU_ASSIGN_OR_RETURN(const TilingChoice choice, Tile(config, layer, options));
  NPU_ASSIGN_OR_RETURN(std::vector<uint8_t> params, PackActParams(layer));
  params.insert(params.end(), layer.table.begin(), layer.table.end());  // PlaceData's table
  std::vector<uint8_t> weights = PackWeights(layer, TileGrid(layer, choice.tiling));

  CompiledLayer out;
  out.tiling = choice.tiling;
  out.sram = choice.plan;
  out.instructions = EmitConv(layer, choice.tiling, choice.plan, PlaceData(layer));
  AssignDependencies(out.instructions);
  NPU_CHECK(CheckTokenProtocol(out.instructions).ok());
  const DramLayout layout = PlanDram(layer, out.instructions.size());
  RelocateDram(out.instructions, layout.data_base);
  NPU_ASSIGN_OR_RETURN(out.cost, PredictCost(config, out.instructions, nullptr,
                                             {.instruction_offset = layout.instructions}));

  LayerSummary summary;
  summary.tiling = ToString(choice.tiling);
  summary.predicted_cycles = out.cost.cycles;
  summary.predicted_dram_bytes = out.cost.dram_bytes();
  summary.peak_sram_bytes = choice.plan.sram_bytes;
  StatusOr<spec::Program> program = BuildProgram(config, layer, out.instructions, layout,
                                                 std::move(weights), std::move(params), summary);
  if (!program.ok()) return program.status();
  out.program = std::move(program).value();
  return out;
}

StatusOr<spec::Program> CompileConvLayer(const spec::NpuConfig& config, const ConvLayer& layer) {
  NPU_ASSIGN_OR_RETURN(CompiledLayer compiled, CompileConvLayerDetailed(config, layer));
  return std::move(compiled.program);
}

std::string ListInstructions(const std::vector<spec::Instruction>& insns) {
  std::string text;
  for (size_t i = 0; i < insns.size(); ++i) {
    text += fmt::format("{:6} {}\n", i, spec::Disassemble(insns[i]));
  }
  return text;
}

StatusOr<std::vector<spec::Instruction>> DecodeInstructions(const spec::Program& program) {
  const std::string& words = program.instructions();
  if (words.size() % spec::kInsnBytes != 0) {
    return DataLoss(
        fmt::format("instruction section of {} bytes is not a whole number of {}-byte "
                    "words",
                    words.size(), spec::kInsnBytes));
  }
  std::vector<spec::Instruction> insns;
  insns.reserve(words.size() / spec::kInsnBytes);
  for (size_t off = 0; off < words.size(); off += spec::kInsnBytes) {
    StatusOr<spec::Instruction> insn =
        spec::Decode(reinterpret_cast<const uint8_t*>(words.data() + off));
    if (!insn.ok()) return insn.status().WithContext(fmt::format("instruction #{}", off / 32));
    insns.push_back(*insn);
  }
  return insns;
}

}  // namespace npu::compiler
