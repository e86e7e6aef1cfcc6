// Energy formulas. Figures at 45 nm, 0.9 V (docs/energy-area.md): Horowitz, "Computing's energy
// problem (and what we can do about it)", ISSCC 2014.
#include "hw/spec/energy_model.h"

#include <cmath>

#include "hw/spec/area_model.h"
#include "hw/spec/isa.h"
#include "hw/spec/tech_model.h"

namespace npu::spec {
namespace {

constexpr double kMult8Pj = 0.2, kAdd32Pj = 0.1, kMult32Pj = 3.1;  // Horowitz
constexpr double kFpMult16Pj = 1.1, kFpAdd32Pj = 0.9;               // Horowitz
constexpr double kSram8KiB32BitPj = 5.0;                           // Horowitz
// A restoring division (and the normaliser's square root): one 32-bit subtract per result bit.
constexpr double kDivideSteps = 32;
// On-chip wire energy per bit and mm at 45 nm (an assumption, docs/energy-area.md).
constexpr double kWirePjPerBitMm = 0.1;

// A byte crosses about one side of the die between the DRAM port and its initiator.
double InterconnectPjPerByte45(const NpuConfig& c) {
  return 8 * kWirePjPerBitMm * std::sqrt(TotalArea(UnitAreas(c)));
}

// A byte is written into a channel's staging buffer and read out again.
double DmaPjPerByte45(const NpuConfig& c) {
  const uint64_t staging = uint64_t{c.dma().outstanding_bursts()} * c.dma().burst_bytes();
  return 2 * SramWordEnergy45Pj(staging, 1);
}

// An instruction is written into its queue and read out at issue.
double ControlPjPerInstruction45(const NpuConfig& c) {
  const uint64_t queue_bytes = uint64_t{c.cmd().queue_depth()} * kInsnBytes;
  return 2 * SramWordEnergy45Pj(queue_bytes, kInsnBytes);
}

}  // namespace

std::string_view EnergyUnitName(EnergyUnit unit) {
  static constexpr std::string_view kNames[kNumEnergyUnits] = {
      "mac_array",    "sram", "accumulator", "vector_unit", "dma",
      "interconnect", "dram", "control",     "leakage"};
  return kNames[static_cast<int>(unit)];
}

double SramWordEnergy45Pj(uint64_t macro_bytes, uint64_t word_bytes) {
  return kSram8KiB32BitPj * std::sqrt(double(macro_bytes) / 8192) * (double(word_bytes) / 4);
}

EnergyCosts ResolveEnergyCosts(const NpuConfig& c) {
  const TechParams tech = ResolveTech(c);
  const double s = tech.energy_scale();
  const uint64_t bank_bytes = c.sram().size_bytes() / c.sram().banks();
  EnergyCosts e;
  e.mac_pj = s * (kMult8Pj + kAdd32Pj);
  e.fp16_mac_pj = s * (kFpMult16Pj + kFpAdd32Pj);
  // Writes are taken to cost what reads do (docs/energy-area.md).
  e.sram_read_word_pj = s * SramWordEnergy45Pj(bank_bytes, c.sram().bank_width_bytes());
  e.sram_write_word_pj = e.sram_read_word_pj;
  e.acc_entry_pj = s * SramWordEnergy45Pj(c.mac().acc_buffer_bytes() / c.mac().cols(), 4);
  e.vector_op_pj = s * (kMult32Pj + kAdd32Pj);
  e.divide_pj = s * kDivideSteps * kAdd32Pj;
  e.dma_pj_per_byte = s * DmaPjPerByte45(c);
  e.interconnect_pj_per_byte = s * InterconnectPjPerByte45(c);
  e.dram_pj_per_byte = tech.dram_pj_per_byte;
  e.control_pj_per_instruction = s * ControlPjPerInstruction45(c);
  e.leakage_mw = tech.leakage_mw_per_mm2 * TotalArea(UnitAreas(c));
  return e;
}

EnergyBreakdown EventEnergy(const EnergyCosts& c, const UnitEvents& ev) {
  const uint64_t dram_bytes = ev.dram_read_bytes + ev.dram_write_bytes;
  EnergyBreakdown e{};
  e[int(EnergyUnit::kMacArray)] =
      double(ev.macs - ev.fp16_macs) * c.mac_pj + double(ev.fp16_macs) * c.fp16_mac_pj;
  e[int(EnergyUnit::kSram)] = double(ev.sram_read_words) * c.sram_read_word_pj +
                              double(ev.sram_write_words) * c.sram_write_word_pj;
  e[int(EnergyUnit::kAccumulator)] =
      double(ev.acc_read_bytes + ev.acc_write_bytes) / 4 * c.acc_entry_pj;
  // The depthwise datapath's multiply-accumulates cost what the array's int8 ones do.
  e[int(EnergyUnit::kVectorUnit)] = double(ev.vector_ops) * c.vector_op_pj +
                                    double(ev.vector_macs) * c.mac_pj +
                                    double(ev.vector_divides) * c.divide_pj;
  e[int(EnergyUnit::kDma)] = double(ev.dma_bytes) * c.dma_pj_per_byte;
  e[int(EnergyUnit::kInterconnect)] = double(dram_bytes) * c.interconnect_pj_per_byte;
  e[int(EnergyUnit::kDram)] = double(dram_bytes) * c.dram_pj_per_byte;
  e[int(EnergyUnit::kControl)] = double(ev.fetched_instructions) * c.control_pj_per_instruction;
  return e;
}

double LeakagePj(const EnergyCosts& c, uint64_t cycles, uint32_t clock_mhz) {
  const double microseconds = double(cycles) / clock_mhz;
  return c.leakage_mw * microseconds * 1e3;  // 1 mW for 1 us is 1 nJ
}

double TotalEnergy(const EnergyBreakdown& energy) {
  double total = 0;
  for (double pj : energy) total += pj;
  return total;
}

}  // namespace npu::spec
