// Assembles a spec::Program: the DRAM image layout, relocation of DMA offsets into it, encoding,
// and the tensor, segment and layer descriptions the firmware and the reports read.
//
// DRAM layout (offsets from DRAM_BASE, every region aligned to kDramAlign):
//   instructions | <layer>.weights | <layer>.params (ACT records, then the table if any) | input
//   | output
// The emitter works with data offsets relative to the weights region; RelocateDram() adds the
// region's final offset once the instruction count is known.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "compiler/schedule/conv_emitter.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

inline constexpr uint64_t kDramAlign = 64;

struct DramLayout {
  uint64_t instructions = 0, instruction_bytes = 0;
  uint64_t data_base = 0;  // where the weights start; the emitter's offsets are relative to it
  ConvOperands data;       // relative to data_base (input and output in DRAM)
  uint64_t weight_bytes = 0, param_bytes = 0, input_bytes = 0, output_bytes = 0;
  uint64_t end = 0;  // Program.dram_bytes
};

// Data offsets relative to the weights region (what the emitter needs before the instruction
// count is known); activation weights (b) after the output.
ConvOperands PlaceData(const ConvLayer& layer);
DramLayout PlanDram(const ConvLayer& layer, uint64_t instruction_count);

// The bytes an image may span: the config's DRAM, and at most what 32-bit offsets reach.
uint64_t DramLimitBytes(const spec::NpuConfig& config);

// ResourceExhausted, naming the layer, if the image with `instruction_count` instructions does
// not fit DramLimitBytes().
Status CheckDramFits(const spec::NpuConfig& config, const ConvLayer& layer,
                     uint64_t instruction_count);

// Adds `delta` to every LOAD/STORE DRAM offset.
void RelocateDram(std::vector<spec::Instruction>& insns, uint64_t delta);

// The 32-byte words, in order; an encode failure names the instruction index.
StatusOr<std::string> EncodeInstructions(const std::vector<spec::Instruction>& insns);

// What the builder records about the layer besides the image.
struct LayerSummary {
  std::string tiling;
  uint64_t predicted_cycles = 0;
  uint64_t predicted_dram_bytes = 0;
  uint64_t peak_sram_bytes = 0;
};

// The complete Program. Fails if the image does not fit the config's DRAM or 32-bit offsets.
StatusOr<spec::Program> BuildProgram(const spec::NpuConfig& config, const ConvLayer& layer,
                                     const std::vector<spec::Instruction>& insns,
                                     const DramLayout& layout, std::vector<uint8_t> weights,
                                     std::vector<uint8_t> params, const LayerSummary& summary);

}  // namespace npu::compiler
