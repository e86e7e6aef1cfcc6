// The single-layer compiler's entry point: ConvLayer + NpuConfig -> spec::Program.
//
//   1. Validate the config and the layer.            (spec::Validate, CheckLayer)
//   2. Choose a tiling (or take a forced one).        (tiling/tiling_search.h)
//   3. Pack the constants.                            (codegen/constants.h)
//   4. Emit the instruction stream and its tokens.    (schedule/conv_emitter.h, dependencies.h)
//   5. Lay out DRAM, relocate, predict the cost, encode, describe.  (codegen/program_builder.h)
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/cost/cost_model.h"
#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/conv_tiling.h"
#include "compiler/tiling/sram_plan.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// Compiler behaviour (the hardware is the NpuConfig).
struct CompileOptions {
  // Single layer: skip the search and use this tiling (tests, experiments).
  std::optional<ConvTiling> tiling;
  // Networks (compiler/network): keep activations in SRAM between layers when they fit, and
  // allocate each layer's buffers from the previous layer on so its loads start early.
  bool keep_activations_on_chip = true;
  bool prefetch_across_layers = true;
  // Networks: move a layer's instructions in among those of the layer before it where that is
  // faster (compiler/network/layer_interleave.h).
  bool interleave_layers = true;
  // Networks: split a convolution and the layer reading its too-large output into row strips
  // whose intermediates stay on chip (compiler/network/row_strips.h). kAuto compiles the network
  // whole, with the pairs split by default (pointwise producers) and with every pair split (as
  // chains, and as pairs), and keeps the one predicted fastest (strips recompute halo rows: on a
  // small SRAM they lose), or a slower one that moves less DRAM (network/compile_model.h,
  // Preferred).
  enum class RowStrips { kAuto, kOn, kOff };
  RowStrips row_strips = RowStrips::kAuto;
  // Networks, with row strips: the strips of one node keep its weights and records in SRAM, the
  // first LOADing them (compiler/network/held_constants.h); false: every strip LOADs them.
  bool hold_constants = true;
  // Networks, with row strips: per consumer convolution (node name), the output rows of its
  // strips instead of the default; 0 keeps that pair whole (a tuning's band heights).
  std::map<std::string, int64_t> strip_rows = {};
  // Networks, with row strips kOn: chains keep their halo rows instead of computing them twice,
  // and run on through residual blocks (compiler/network/row_strips.h, StripOptions).
  bool keep_halos = false;
  // Networks, with row strips kOn: every pair splits, those reading or writing a concatenation
  // that fits the SRAM in strips that fit beside it (StripOptions::beside_concats; kAuto's
  // variant for DenseNet's dense blocks, which then keep their concatenation on chip).
  bool strips_beside_concats = false;
  // Networks: pack a grouped convolution's groups side by side on the array's columns
  // (compiler/network/group_packing.h).
  bool pack_groups = true;
  // Networks: move a pool to run beside a convolution it does not depend on
  // (compiler/network/pool_placement.h).
  bool place_pools = true;
  // Networks: per layer name, a convolution tiling to take instead of the search's where it fits
  // (a tuning's: compiler/network/tuning.h); a layer whose tiling does not fit is searched.
  std::map<std::string, ConvTiling> tilings = {};
  // Networks: run on the control core what the NPU cannot (docs/cpu-fallback.md); and node or
  // op names to put there whatever the NPU could do.
  bool cpu_fallback = true;
  std::vector<std::string> cpu_ops = {};
  // Networks: assemble the binary (CompiledModel::program, every layer's constants copied into
  // it). The tuner's candidates are judged by their cost alone and skip it.
  bool build_program = true;
  // Networks, row strips kAuto: hears how many of the variants are compiled, from 0 of them to
  // all (a tool's progress line; called from the compiling threads, one call at a time).
  std::function<void(size_t compiled, size_t variants)> progress = {};
};

struct CompiledLayer {
  spec::Program program;
  std::vector<spec::Instruction> instructions;  // what program.instructions encodes
  ConvTiling tiling;
  SramPlan sram;
  CostEstimate cost;
};

StatusOr<CompiledLayer> CompileConvLayerDetailed(const spec::NpuConfig& config,
                                                 const ConvLayer& layer,
                                                 const CompileOptions& options = {});

// The complete program for one layer (what the compile tool writes and the platform runs).
StatusOr<spec::Program> CompileConvLayer(const spec::NpuConfig& config, const ConvLayer& layer);

// One spec::Disassemble line per instruction, prefixed with its index.
std::string ListInstructions(const std::vector<spec::Instruction>& insns);

// Decodes a program's instruction words; fails on a truncated or undecodable word.
StatusOr<std::vector<spec::Instruction>> DecodeInstructions(const spec::Program& program);

}  // namespace npu::compiler
