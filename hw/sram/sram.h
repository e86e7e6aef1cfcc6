// Banked on-chip SRAM, private to the NPU, timed by the banks' rule (hw/spec/sram_bank_timer.h,
// which the compiler's cost replay shares): accesses from different units to the same banks cost
// each other cycles (bank conflicts), and so does a strided access whose runs land in the same
// banks. Which bytes and words an access touches (a scattered run's too) is
// hw/spec/sram_words.h's. The MAC array's operand stream (an OperandStream read of no data) is
// booked, not moved: the array takes its data through the debug interface.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/common/clock.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/sram_bank_timer.h"
#include "hw/spec/unit_accesses.h"

namespace npu::hw {

class Sram : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Sram> socket{"socket"};

  Sram(sc_core::sc_module_name name, const spec::NpuConfig& config, const Clock& clock);
  uint64_t size() const { return mem_.size(); }

 private:
  void BTransport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned TransportDbg(int port, tlm::tlm_generic_payload& gp);
  // Checks range and moves the data; sets the response status.
  bool Move(tlm::tlm_generic_payload& gp, spec::SramAccess& shape);

  const Clock& clock_;
  spec::SramBankTimer banks_;
  std::vector<uint8_t> mem_;
};

}  // namespace npu::hw
