// The control core: a processor on the system bus that runs the firmware as a SystemC thread.
// It implements fw::Bus with timed bus transactions and the NPU's interrupt line, then stops the
// simulation when the firmware returns.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <systemc>
#include <tlm>

#include "firmware/bus.h"

namespace npu::platform {

class ControlCore : public sc_core::sc_module, public fw::Bus {
 public:
  tlm_utils::simple_initiator_socket<ControlCore> bus{"bus"};
  sc_core::sc_in<bool> irq{"irq"};

  SC_HAS_PROCESS(ControlCore);
  ControlCore(sc_core::sc_module_name name, std::function<void(fw::Bus&)> firmware_main);
  bool finished() const { return finished_; }

  bool Read32(uint64_t addr, uint32_t& value) override;
  bool Write32(uint64_t addr, uint32_t value) override;
  bool ReadBlock(uint64_t addr, uint8_t* data, size_t bytes) override;
  bool WriteBlock(uint64_t addr, const uint8_t* data, size_t bytes) override;
  void WaitForInterrupt() override;

 private:
  void Main();
  bool Transfer(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, size_t bytes);

  std::function<void(fw::Bus&)> firmware_main_;
  bool finished_ = false;
};

}  // namespace npu::platform
