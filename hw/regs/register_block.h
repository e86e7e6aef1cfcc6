// The NPU's memory-mapped registers (hw/spec/regs.h), on the system bus. Firmware programs a run
// here, rings the doorbell, takes the completion interrupt and reads the performance counters.
// Only aligned 32-bit accesses; holes answer with an address error, writes to read-only
// registers with a command error. Each access takes one cycle.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

#include "hw/cmdproc/command_processor.h"
#include "hw/common/unit_context.h"

namespace npu::hw {

class RegisterBlock : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RegisterBlock> socket{"socket"};
  sc_core::sc_out<bool> irq{"irq"};

  SC_HAS_PROCESS(RegisterBlock);
  RegisterBlock(sc_core::sc_module_name name, UnitContext& ctx, uint64_t config_fingerprint,
                CommandProcessor& command_processor);

 private:
  void BTransport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& gp);
  tlm::tlm_response_status Access(tlm::tlm_generic_payload& gp);
  bool Read(uint32_t offset, uint32_t& value);  // not const: TIMER_LO latches TIMER_HI
  tlm::tlm_response_status Write(uint32_t offset, uint32_t value);
  void RingDoorbell();
  void OnRunCompleted();  // SC_METHOD on the command processor's `completed`
  void DriveIrq();        // SC_METHOD: irq = pending & enabled

  UnitContext& ctx_;
  const uint64_t fingerprint_;
  CommandProcessor& cp_;
  uint32_t irq_status_ = 0;
  uint32_t irq_enable_ = 0;
  uint32_t timer_hi_ = 0;
  sc_core::sc_event irq_changed_;
};

}  // namespace npu::hw
