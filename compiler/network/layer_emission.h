// Emits one scheduled layer with its final addresses, and packs its constants. Token masks are
// left empty: the whole network's stream gets them at once (schedule/dependencies.h), so hazards
// between layers (an on-chip tensor, a reused DRAM arena byte, an SRAM slot) are ordered too.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/lower/network.h"
#include "compiler/network/layer_schedule.h"
#include "compiler/schedule/tensor_place.h"
#include "hw/spec/isa.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// A layer's constants, as one DRAM segment, each part 64-byte aligned at the offsets listed: per
// convolution part its packed weights (tile order) and its ACT records, then the convolution's
// table (one for all parts); a matrix product's ACT records (one set for every batch index); a
// LUT's table; an ELTWISE's constant b; a RESIZE's taps (packed for its tiling).
struct LayerConstants {
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> weights, params;  // per part, offsets into `bytes`
  std::vector<uint64_t> cpu;              // a CPU layer: per CpuLayer::constants entry
  std::optional<uint64_t> table;          // a convolution's or a LUT's table
  std::optional<uint64_t> b;              // an ELTWISE's constant b
  std::optional<uint64_t> taps;           // a RESIZE's taps
};
StatusOr<LayerConstants> PackLayerConstants(const NetLayer& layer, const LayerSchedule& schedule);

struct LayerPlaces {
  TensorPlace inputs[2];  // whole tensors: channel_offset 0, channels = the value's c
  TensorPlace output;
  uint64_t constants = 0;  // DRAM offset of the layer's constant segment
  uint64_t scratch_base = 0;
  uint64_t held_base = 0;  // a convolution's held weights and records (held_constants.h)
};

// `acc_phase` carries the accumulator slot rotation from layer to layer. A CPU layer emits none.
std::vector<spec::Instruction> EmitLayer(const NetLayer& layer, const LayerSchedule& schedule,
                                         const LayerConstants& constants, const LayerPlaces& places,
                                         uint32_t* acc_phase);

}  // namespace npu::compiler
