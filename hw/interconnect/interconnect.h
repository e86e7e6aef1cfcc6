// The system bus: routes the control core's, the command processor's and the DMA engines'
// transactions to DRAM or to the NPU's register block by address (hw/spec/memory_map.h).
// It adds no latency of its own; contention is modelled where it happens, at the DRAM.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

namespace npu::hw {

class Interconnect : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Interconnect> initiators{"initiators"};
  tlm_utils::simple_initiator_socket<Interconnect> dram{"dram"};
  tlm_utils::simple_initiator_socket<Interconnect> regs{"regs"};

  Interconnect(sc_core::sc_module_name name, uint64_t dram_bytes);

 private:
  enum class Target { kNone, kDram, kRegs };
  // Resolves the target and rewrites the address to the target's local offset.
  Target Decode(tlm::tlm_generic_payload& gp) const;
  void BTransport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned TransportDbg(int port, tlm::tlm_generic_payload& gp);

  uint64_t dram_bytes_;
};

}  // namespace npu::hw
