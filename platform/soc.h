// The system: DRAM, the system bus, the NPU and the control core running the firmware, built
// from one validated config.
#pragma once

#include <functional>
#include <systemc>

#include "hw/dram/dram.h"
#include "hw/interconnect/interconnect.h"
#include "hw/npu/npu.h"
#include "platform/control_core.h"

namespace npu::platform {

class Soc : public sc_core::sc_module {
 public:
  Soc(sc_core::sc_module_name name, const spec::NpuConfig& config, const hw::NpuOptions& options,
      std::function<void(fw::Bus&)> firmware_main);

  hw::Clock clock;
  hw::Dram dram;
  hw::Interconnect bus;
  hw::Npu npu;
  ControlCore core;
  sc_core::sc_signal<bool> irq{"irq"};
};

}  // namespace npu::platform
