// The activation (vector) unit. Executes ACT: reads an int32 tile from the accumulator buffer and
// the per-channel parameter records from SRAM, applies bias, requantisation, zero point and
// clamp (spec::ComputeAct, hw/spec/arith.h) and writes int8 pixels to SRAM. An ACT takes
// max(spec::ActComputeCycles, SRAM cycles of its parameter read and output write) plus the
// cycles those accesses lose to banks busy with other units.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

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
  UnitResult Execute(const spec::ActArgs& act);

  UnitContext& ctx_;
  std::vector<uint8_t> params_;
  std::vector<int32_t> sums_;
  std::vector<int8_t> out_;
};

}  // namespace npu::hw
