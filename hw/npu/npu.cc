// Building and wiring the NPU.
#include "hw/npu/npu.h"

#include "hw/spec/config.h"
#include "hw/spec/dma_dispatch.h"

namespace npu::hw {

Npu::Npu(sc_core::sc_module_name name, const spec::NpuConfig& config, const NpuOptions& options)
    : sc_module(name),
      config_(config),
      clock_(config.clock_mhz()),
      tokens_("tokens", clock_),
      unit_timer_("unit_timer", clock_),
      ctx_{config_,
           clock_,
           counters_,
           tokens_,
           run_,
           unit_timer_,
           nullptr,
           options.trace ? &trace_ : nullptr,
           &records_,
           options.compute_data},
      sram("sram", config_, clock_),
      acc("acc", config_),
      dma_channels("dma_channels", clock_, unit_timer_),
      load_dma("load_dma", ctx_, spec::Opcode::kLoad, config.dma().load_channels(), dma_channels),
      store_dma("store_dma", ctx_, spec::Opcode::kStore, config.dma().store_channels(),
                dma_channels),
      mac_array("mac_array", ctx_),
      activation("activation", ctx_),
      command_processor("command_processor", ctx_,
                        {&load_dma.queue, &mac_array.queue, &activation.queue, &store_dma.queue}),
      regs("regs", ctx_, spec::Fingerprint(config), command_processor) {
  ctx_.control = &command_processor;
  for (const spec::Queue q : spec::kDmaEnginePriority) {
    dma_channels.Add(q == spec::Queue::kLoad ? load_dma : store_dma);
  }
  load_dma.sram.bind(sram.socket);
  store_dma.sram.bind(sram.socket);
  mac_array.sram.bind(sram.socket);
  activation.sram.bind(sram.socket);
  mac_array.acc.bind(acc.socket);
  activation.acc.bind(acc.socket);
}

}  // namespace npu::hw
