// The activation (vector) unit. Executes the vector queue:
//  ACT     reads an int32 tile from the accumulator buffer and per-channel parameter records
//          from SRAM, applies bias, requantisation, zero point, clamp and optionally a lookup
//          table (spec::ComputeAct), writes int8.
//  POOL    max or average pooling of an int8 SRAM region (spec::ComputePool).
//  ELTWISE add, mul, max or min of two int8 SRAM vectors with their own scales, b broadcast
//          per channel, pixel or scalar (spec::ComputeEltwise); FP16 ones, optionally
//          quantised to an int8 output (int8_out).
//  LUT     an int8 SRAM vector through a 256-entry table in SRAM (spec::ComputeLut), int8 or
//          (fp16_out) FP16 entries and output; or pixels of a channel slice to a channel slice,
//          scattered by an element stride (a group of a channel shuffle), and with bypass no
//          table: the copies between on-chip tensors.
//  RESIZE  bilinear or nearest resampling of an int8 SRAM region by taps tables in SRAM
//          (spec::ComputeResize).
//  DWCONV  a depthwise convolution and its requantisation in one pass on the lanes' depthwise
//          multipliers (act.depthwise_taps; spec::ComputeDwConv), int8 SRAM in and out.
//  LNORM   layer normalisation of whole pixels on the normaliser's dividers (act.norm_dividers;
//          spec::ComputeLnorm), int8 SRAM in and out.
// Each makes the SRAM accesses spec::UnitSramAccesses lists, and takes max(its vector cycles,
// the SRAM cycles of those accesses) plus the cycles they lose to banks busy with other units
// (spec::IdealCycles gives the first part).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/common/sram_access.h"
#include "hw/common/unit_context.h"

namespace npu::hw {

class ActivationUnit : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<ActivationUnit> sram{"sram"};
  tlm_utils::simple_initiator_socket<ActivationUnit> acc{"acc"};
  sc_core::sc_fifo<QueuedInsn> queue;

  SC_HAS_PROCESS(ActivationUnit);
  ActivationUnit(sc_core::sc_module_name name, UnitContext& ctx);

 private:
  void Run();
  UnitResult Execute(const spec::Instruction& insn);
  // Each checks its fields, makes its SRAM accesses (`accesses`, spec::UnitSramAccesses) and
  // computes; a kSramRange result leaves the faulting access in accesses.failed().
  UnitResult ExecuteAct(const spec::ActArgs& act, SramAccessList& accesses,
                        SramTiming& sram_timing);
  UnitResult ExecutePool(const spec::PoolArgs& pool, SramAccessList& accesses,
                         SramTiming& sram_timing);
  UnitResult ExecuteEltwise(const spec::EltwiseArgs& eltwise, SramAccessList& accesses,
                            SramTiming& sram_timing);
  UnitResult ExecuteLut(const spec::LutArgs& lut, SramAccessList& accesses,
                        SramTiming& sram_timing);
  UnitResult ExecuteResize(const spec::ResizeArgs& resize, SramAccessList& accesses,
                           SramTiming& sram_timing);
  UnitResult ExecuteDwConv(const spec::DwConvArgs& dw, SramAccessList& accesses,
                           SramTiming& sram_timing);
  UnitResult ExecuteLnorm(const spec::LnormArgs& lnorm, SramAccessList& accesses,
                          SramTiming& sram_timing);

  UnitContext& ctx_;
  std::vector<uint8_t> params_;
  std::vector<int32_t> sums_;
  std::vector<int8_t> in_a_, in_b_, table_, out_;
  std::vector<uint8_t> row_taps_, col_taps_;
};

}  // namespace npu::hw
