// Energy of a run from the events the simulation counted (unit_events.h): a cost in pJ per
// event, from published 45 nm figures scaled to the config's technology (tech_model.h), plus
// leakage over the run's time. The report prices every instruction's events with it and
// attributes the result to layers and units. docs/energy-area.md states each formula and source.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "hw/spec/npu_config.pb.h"
#include "hw/spec/unit_events.h"

namespace npu::spec {

enum class EnergyUnit : uint8_t {
  kMacArray,      // int8 and FP16 MACs
  kSram,          // bank word reads and writes
  kAccumulator,   // int32 entry reads and writes
  kVectorUnit,    // lane operations
  kDma,           // bytes through a channel's staging buffer
  kInterconnect,  // bytes between the DRAM port and the DMA channels or the fetch unit
  kDram,          // DRAM bytes read and written (the off-chip device)
  kControl,       // instructions fetched, queued and issued
  kLeakage,       // static power of the whole NPU over the run's time
};
inline constexpr int kNumEnergyUnits = 9;
std::string_view EnergyUnitName(EnergyUnit unit);

using EnergyBreakdown = std::array<double, kNumEnergyUnits>;  // pJ, indexed by EnergyUnit

// The cost of one event of each kind, at the config's technology.
struct EnergyCosts {
  double mac_pj = 0;       // an int8 multiply and a 32-bit integer add
  double fp16_mac_pj = 0;  // an FP16 multiply and an FP32 add
  double sram_read_word_pj = 0, sram_write_word_pj = 0;  // one bank word of bank_width_bytes
  double acc_entry_pj = 0;                               // one int32 entry, read or write
  double vector_op_pj = 0;
  double divide_pj = 0;  // one LNORM division or square root (32 subtract steps)
  double dma_pj_per_byte = 0;
  double interconnect_pj_per_byte = 0;
  double dram_pj_per_byte = 0;
  double control_pj_per_instruction = 0;
  double leakage_mw = 0;  // the whole NPU
};

// One access of `word_bytes` to an SRAM macro of `macro_bytes` at 45 nm, 0.9 V: Horowitz's
// 5 pJ per 32-bit read of 8 KB, growing with the square root of the capacity (10 pJ at 32 KB)
// and linearly with the word width (his 64-bit figures are twice his 32-bit ones).
double SramWordEnergy45Pj(uint64_t macro_bytes, uint64_t word_bytes);

EnergyCosts ResolveEnergyCosts(const NpuConfig& config);

// The dynamic energy of `events`, per unit (kLeakage is 0).
EnergyBreakdown EventEnergy(const EnergyCosts& costs, const UnitEvents& events);
// Leakage over `cycles` at clock_mhz.
double LeakagePj(const EnergyCosts& costs, uint64_t cycles, uint32_t clock_mhz);
double TotalEnergy(const EnergyBreakdown& energy);

}  // namespace npu::spec
