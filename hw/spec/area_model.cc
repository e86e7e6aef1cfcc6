// Area formulas. Figures at 45 nm (docs/energy-area.md): Horowitz, ISSCC 2014, for the
// arithmetic; the Nangate 45 nm open cell library for a flip-flop; Intel's 45 nm 6T bitcell.
#include "hw/spec/area_model.h"

#include <algorithm>

#include "hw/spec/isa.h"
#include "hw/spec/tech_model.h"

namespace npu::spec {
namespace {

constexpr double kUm2PerMm2 = 1e6;
constexpr double kMult8Um2 = 282, kAdd32Um2 = 137, kMult32Um2 = 3495;  // Horowitz
constexpr double kFlipFlopUm2 = 4.522;                                 // Nangate DFF_X1
constexpr double kBitcellUm2 = 0.346;                                  // Intel 45 nm 6T
// Assumptions (docs/energy-area.md): the fraction of a macro that is bitcells, its fixed
// decoder and control, and per port bit a sense amplifier and a write driver (about two
// flip-flops' worth).
constexpr double kArrayEfficiency = 0.7;
constexpr double kMacroFixedUm2 = 5000;
constexpr double kMacroPerPortBitUm2 = 2 * kFlipFlopUm2;

double PeUm2() { return kMult8Um2 + kAdd32Um2 + (8 + 8 + 32) * kFlipFlopUm2; }
double VectorLaneUm2() { return kMult32Um2 + 2 * kAdd32Um2 + 64 * kFlipFlopUm2; }
// A lane's depthwise datapath, per tap: an int8 multiplier, a 32-bit adder of the sum's tree and
// the tap's 8-bit weight register (the window's inputs arrive through the lane's operand port).
double DepthwiseTapUm2() { return kMult8Um2 + kAdd32Um2 + 8 * kFlipFlopUm2; }
// The layer normaliser's pipelined divider: a restoring division of 32 quotient bits, 32 stages
// each a 32-bit subtractor with registers for the partial remainder, the divisor and the quotient
// so far. Its integer square root (32 result bits of a 64-bit radicand) is the same structure,
// counted as one more divider.
double NormDividerUm2() { return 32 * (kAdd32Um2 + 3 * 32 * kFlipFlopUm2); }
// A column group's input injection point (mac.col_groups): a 2:1 mux on each row's 8-bit input
// (half a flip-flop's area a bit, as the interconnect's muxes) and the skew registers that delay
// row i's input i cycles, R (R - 1) / 2 bytes, as the array's left edge has.
double ColumnInjectionUm2(uint64_t rows) {
  return (rows * 8 * 0.5 + rows * (rows - 1) / 2 * 8) * kFlipFlopUm2;
}
// Three 32-bit address adders and the descriptor registers of a channel.
double DmaChannelLogicUm2() { return 3 * kAdd32Um2 + 4 * 32 * kFlipFlopUm2; }

double AccumulatorArea45Mm2(const NpuConfig& c) {
  const uint64_t cols = c.mac().cols();
  return cols * SramMacroArea45Mm2(c.mac().acc_buffer_bytes() / cols, 4);
}

double DmaArea45Mm2(const NpuConfig& c) {
  const uint64_t channels = c.dma().load_channels() + c.dma().store_channels();
  const uint64_t staging = uint64_t{c.dma().outstanding_bursts()} * c.dma().burst_bytes();
  return channels * (SramMacroArea45Mm2(staging, c.dram().bytes_per_cycle()) +
                     DmaChannelLogicUm2() / kUm2PerMm2);
}

double InterconnectArea45Mm2(const NpuConfig& c) {
  // DMA channels and instruction fetch share the DRAM port.
  const uint64_t ports = c.dma().load_channels() + c.dma().store_channels() + 1;
  const uint64_t bits = uint64_t{c.dram().bytes_per_cycle()} * 8;
  return ports * bits * kFlipFlopUm2 * 1.5 / kUm2PerMm2;  // a flip-flop and half again of mux
}

double ControlArea45Mm2(const NpuConfig& c) {
  constexpr uint64_t kQueues = 4;
  constexpr double kDecoderUm2 = 10000;
  const uint64_t insns = kQueues * c.cmd().queue_depth() + c.cmd().fetch_batch();
  return (insns * kInsnBytes * 8 * kFlipFlopUm2 + kDecoderUm2) / kUm2PerMm2;
}

}  // namespace

std::string_view AreaUnitName(AreaUnit unit) {
  static constexpr std::string_view kNames[kNumAreaUnits] = {
      "mac_array", "sram", "accumulator", "vector_unit", "dma", "interconnect", "control"};
  return kNames[static_cast<int>(unit)];
}

double SramMacroArea45Mm2(uint64_t bytes, uint64_t word_bytes) {
  const double cells = double(bytes) * 8 * kBitcellUm2 / kArrayEfficiency;
  return (cells + kMacroFixedUm2 + double(word_bytes) * 8 * kMacroPerPortBitUm2) / kUm2PerMm2;
}

AreaBreakdown UnitAreas(const NpuConfig& c) {
  const uint64_t banks = c.sram().banks();
  AreaBreakdown a{};
  // Row groups: one more 32-bit adder per column and group, to end the column's sum at each
  // group's last row; column groups: an injection point per group past the first (the weights'
  // broadcast wiring is counted for neither).
  const uint32_t col_groups = std::max<uint32_t>(1, c.mac().col_groups());
  a[int(AreaUnit::kMacArray)] =
      (double(c.mac().rows()) * c.mac().cols() * PeUm2() +
       double(c.mac().row_groups() - 1) * c.mac().cols() * kAdd32Um2 +
       double(col_groups - 1) * ColumnInjectionUm2(c.mac().rows())) /
      kUm2PerMm2;
  a[int(AreaUnit::kSram)] =
      banks * SramMacroArea45Mm2(c.sram().size_bytes() / banks, c.sram().bank_width_bytes());
  a[int(AreaUnit::kAccumulator)] = AccumulatorArea45Mm2(c);
  const uint32_t dividers = c.act().norm_dividers();
  a[int(AreaUnit::kVectorUnit)] =
      (c.act().lanes() * (VectorLaneUm2() + c.act().depthwise_taps() * DepthwiseTapUm2()) +
       (dividers > 0 ? dividers + 1 : 0) * NormDividerUm2()) /
      kUm2PerMm2;
  a[int(AreaUnit::kDma)] = DmaArea45Mm2(c);
  a[int(AreaUnit::kInterconnect)] = InterconnectArea45Mm2(c);
  a[int(AreaUnit::kControl)] = ControlArea45Mm2(c);
  const double scale = ResolveTech(c).area_scale;
  for (double& mm2 : a) mm2 *= scale;
  return a;
}

double TotalArea(const AreaBreakdown& areas) {
  double total = 0;
  for (double mm2 : areas) total += mm2;
  return total;
}

}  // namespace npu::spec
