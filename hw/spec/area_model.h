// Silicon area of the NPU per unit, in mm^2, from the config and its technology (tech_model.h):
// published 45 nm figures for the arithmetic, flip-flops and SRAM bitcells, scaled by the node's
// area factor. docs/energy-area.md states every formula and source.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "hw/spec/npu_config.pb.h"

namespace npu::spec {

enum class AreaUnit : uint8_t {
  kMacArray,      // rows x cols PEs: 8-bit multiplier, 32-bit adder, operand and sum registers
  kSram,          // the banked SRAM: one macro per bank
  kAccumulator,   // the int32 accumulator buffer: one macro per MAC column
  kVectorUnit,    // act.lanes lanes: 32-bit multiplier, two 32-bit adders, registers
  kDma,           // per channel: staging buffer and address generators
  kInterconnect,  // DRAM-side ports: one registered mux per initiator and data bit
  kControl,       // command processor: fetch buffer, four instruction queues, decoder
};
inline constexpr int kNumAreaUnits = 7;
std::string_view AreaUnitName(AreaUnit unit);

using AreaBreakdown = std::array<double, kNumAreaUnits>;  // mm^2, indexed by AreaUnit

// Area at 45 nm of one SRAM macro of `bytes` with `word_bytes` ports: bitcells over the array
// efficiency, plus a fixed decoder and a sense amplifier and driver per port bit.
double SramMacroArea45Mm2(uint64_t bytes, uint64_t word_bytes);

AreaBreakdown UnitAreas(const NpuConfig& config);  // at the config's node
double TotalArea(const AreaBreakdown& areas);

}  // namespace npu::spec
