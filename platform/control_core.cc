// The control core's bus accesses and firmware thread.
#include "platform/control_core.h"

#include "hw/common/payload.h"

namespace npu::platform {

ControlCore::ControlCore(sc_core::sc_module_name name, const spec::NpuConfig& config,
                         const hw::Clock& clock, std::function<void(fw::Bus&)> firmware_main)
    : sc_module(name), config_(config), clock_(clock), firmware_main_(std::move(firmware_main)) {
  SC_THREAD(Main);
}

void ControlCore::Main() {
  firmware_main_(*this);
  finished_ = true;
  sc_core::sc_stop();
}

bool ControlCore::Transfer(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, size_t bytes) {
  tlm::tlm_generic_payload gp;
  hw::MakePayload(gp, cmd, addr, data, static_cast<uint32_t>(bytes));
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  bus->b_transport(gp, delay);
  sc_core::wait(delay);
  return gp.is_response_ok();
}

bool ControlCore::Read32(uint64_t addr, uint32_t& value) {
  return Transfer(tlm::TLM_READ_COMMAND, addr, reinterpret_cast<uint8_t*>(&value), 4);
}

bool ControlCore::Write32(uint64_t addr, uint32_t value) {
  return Transfer(tlm::TLM_WRITE_COMMAND, addr, reinterpret_cast<uint8_t*>(&value), 4);
}

bool ControlCore::ReadBlock(uint64_t addr, uint8_t* data, size_t bytes) {
  return Transfer(tlm::TLM_READ_COMMAND, addr, data, bytes);
}

bool ControlCore::WriteBlock(uint64_t addr, const uint8_t* data, size_t bytes) {
  return Transfer(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(data), bytes);
}

void ControlCore::WaitForInterrupt() {
  while (!irq.read()) sc_core::wait(irq.value_changed_event());
}

}  // namespace npu::platform

namespace npu::platform {

void ControlCore::Compute(std::span<const spec::CpuWorkItem> work) {
  sc_core::wait(clock_.Cycles(spec::CpuOpNpuCycles(config_, work)));
}

}  // namespace npu::platform
