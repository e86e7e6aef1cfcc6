// The control core: a processor on the system bus that runs the firmware as a SystemC thread.
// It implements fw::Bus with timed bus transactions, the NPU's interrupt line and time for the
// firmware's own computation (hw/spec/cpu_model.h), then stops the simulation when the firmware
// returns.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <systemc>
#include <tlm>

#include "firmware/bus.h"
#include "hw/common/clock.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::platform {

class ControlCore : public sc_core::sc_module, public fw::Bus {
 public:
  tlm_utils::simple_initiator_socket<ControlCore> bus{"bus"};
  sc_core::sc_in<bool> irq{"irq"};

  SC_HAS_PROCESS(ControlCore);
  // `config` gives the cost model of CPU work (its cpu section); `clock` is the NPU's, the
  // platform's time base.
  ControlCore(sc_core::sc_module_name name, const spec::NpuConfig& config, const hw::Clock& clock,
              std::function<void(fw::Bus&)> firmware_main);
  bool finished() const { return finished_; }

  bool Read32(uint64_t addr, uint32_t& value) override;
  bool Write32(uint64_t addr, uint32_t value) override;
  bool ReadBlock(uint64_t addr, uint8_t* data, size_t bytes) override;
  bool WriteBlock(uint64_t addr, const uint8_t* data, size_t bytes) override;
  void WaitForInterrupt() override;
  void Compute(std::span<const spec::CpuWorkItem> work) override;

 private:
  void Main();
  bool Transfer(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, size_t bytes);

  const spec::NpuConfig& config_;
  const hw::Clock& clock_;
  std::function<void(fw::Bus&)> firmware_main_;
  bool finished_ = false;
};

}  // namespace npu::platform
