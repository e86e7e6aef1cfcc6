// Building and wiring the system.
#include "platform/soc.h"

namespace npu::platform {

Soc::Soc(sc_core::sc_module_name name, const spec::NpuConfig& config, const hw::NpuOptions& options,
         std::function<void(fw::Bus&)> firmware_main)
    : sc_module(name),
      clock(config.clock_mhz()),
      dram("dram", config, clock),
      bus("bus", config.dram().size_bytes()),
      npu("npu", config, options),
      core("core", config, clock, std::move(firmware_main)) {
  core.bus.bind(bus.initiators);
  npu.BindBus(bus.initiators);
  bus.dram.bind(dram.socket);
  bus.regs.bind(npu.regs.socket);
  npu.regs.irq.bind(irq);
  core.irq.bind(irq);
}

}  // namespace npu::platform
