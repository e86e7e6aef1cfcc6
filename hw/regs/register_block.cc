// Register decoding, the doorbell and the interrupt line.
#include "hw/regs/register_block.h"

#include <cstring>

#include "hw/spec/config.h"
#include "hw/spec/driver_steps.h"
#include "hw/spec/identification_registers.h"

namespace npu::hw {

namespace regs = spec::regs;

RegisterBlock::RegisterBlock(sc_core::sc_module_name name, UnitContext& ctx,
                             uint64_t config_fingerprint, CommandProcessor& command_processor)
    : sc_module(name), ctx_(ctx), fingerprint_(config_fingerprint), cp_(command_processor) {
  socket.register_b_transport(this, &RegisterBlock::BTransport);
  socket.register_transport_dbg(this, &RegisterBlock::TransportDbg);
  SC_METHOD(OnRunCompleted);
  sensitive << cp_.completed;
  dont_initialize();
  SC_METHOD(DriveIrq);
  sensitive << irq_changed_;
}

void RegisterBlock::BTransport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  gp.set_response_status(Access(gp));
  delay += ctx_.clock.Cycles(spec::kRegisterAccessCycles);  // annotates; never waits
}

unsigned RegisterBlock::TransportDbg(tlm::tlm_generic_payload& gp) {
  if (!gp.is_read()) return 0;  // debug accesses must not ring the doorbell
  gp.set_response_status(Access(gp));
  return gp.is_response_ok() ? 4 : 0;
}

tlm::tlm_response_status RegisterBlock::Access(tlm::tlm_generic_payload& gp) {
  const uint64_t offset = gp.get_address();
  if (gp.get_data_length() != 4 || offset % 4 != 0 || gp.get_byte_enable_ptr() != nullptr) {
    return tlm::TLM_BURST_ERROR_RESPONSE;
  }
  uint32_t value = 0;
  if (gp.is_read()) {
    if (!Read(static_cast<uint32_t>(offset), value)) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    std::memcpy(gp.get_data_ptr(), &value, 4);
    return tlm::TLM_OK_RESPONSE;
  }
  std::memcpy(&value, gp.get_data_ptr(), 4);
  return Write(static_cast<uint32_t>(offset), value);
}

bool RegisterBlock::Read(uint32_t offset, uint32_t& value) {
  const RunState& run = ctx_.run;
  if (offset >= regs::kCountersBase && offset < regs::CounterOffset(regs::kNumCounters)) {
    const uint64_t counter = ctx_.counters.Get((offset - regs::kCountersBase) / 8);
    value = static_cast<uint32_t>(offset % 8 == 0 ? counter : counter >> 32);
    return true;
  }
  if (const std::optional<uint32_t> id =
          regs::IdentificationRegister(ctx_.config, fingerprint_, offset)) {
    value = *id;
    return true;
  }
  switch (offset) {
    case regs::kStatus:
      value = (run.busy ? regs::kStatusBusy : 0) | (run.done ? regs::kStatusDone : 0) |
              (run.error != regs::ErrorCode::kNone ? regs::kStatusError : 0);
      return true;
    case regs::kIrqStatus:
      value = irq_status_;
      return true;
    case regs::kIrqEnable:
      value = irq_enable_;
      return true;
    case regs::kDramBaseLo:
      value = static_cast<uint32_t>(run.dram_base);
      return true;
    case regs::kDramBaseHi:
      value = static_cast<uint32_t>(run.dram_base >> 32);
      return true;
    case regs::kInsnOffset:
      value = run.insn_offset;
      return true;
    case regs::kInsnCount:
      value = run.insn_count;
      return true;
    case regs::kErrorCode:
      value = static_cast<uint32_t>(run.error);
      return true;
    case regs::kErrorInsn:
      value = run.error_insn;
      return true;
    case regs::kTimerLo: {
      const uint64_t now = ctx_.clock.Now();
      timer_hi_ = static_cast<uint32_t>(now >> 32);
      value = static_cast<uint32_t>(now);
      return true;
    }
    case regs::kTimerHi:
      value = timer_hi_;
      return true;
    case regs::kRunStartLo:
      value = static_cast<uint32_t>(run.begin_cycle);
      return true;
    case regs::kRunStartHi:
      value = static_cast<uint32_t>(run.begin_cycle >> 32);
      return true;
    default:
      return false;
  }
}

tlm::tlm_response_status RegisterBlock::Write(uint32_t offset, uint32_t value) {
  RunState& run = ctx_.run;
  const bool programmable = !run.busy;  // run registers are locked while a run is active
  switch (offset) {
    case regs::kDoorbell:
      if (value & 1) RingDoorbell();
      return tlm::TLM_OK_RESPONSE;
    case regs::kIrqStatus:
      irq_status_ &= ~value;  // write one to clear
      irq_changed_.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_OK_RESPONSE;
    case regs::kIrqEnable:
      irq_enable_ = value & (regs::kIrqDone | regs::kIrqError);
      irq_changed_.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_OK_RESPONSE;
    case regs::kDramBaseLo:
      if (programmable) run.dram_base = (run.dram_base & ~uint64_t{0xFFFFFFFF}) | value;
      return tlm::TLM_OK_RESPONSE;
    case regs::kDramBaseHi:
      if (programmable) run.dram_base = (run.dram_base & 0xFFFFFFFF) | (uint64_t{value} << 32);
      return tlm::TLM_OK_RESPONSE;
    case regs::kInsnOffset:
      if (programmable) run.insn_offset = value;
      return tlm::TLM_OK_RESPONSE;
    case regs::kInsnCount:
      if (programmable) run.insn_count = value;
      return tlm::TLM_OK_RESPONSE;
    default: {
      uint32_t ignored;
      return Read(offset, ignored) ? tlm::TLM_COMMAND_ERROR_RESPONSE
                                   : tlm::TLM_ADDRESS_ERROR_RESPONSE;
    }
  }
}

void RegisterBlock::RingDoorbell() {
  if (ctx_.run.busy) return;  // ignored while a run is active
  ctx_.run.busy = true;
  ctx_.run.done = false;
  cp_.Start();
}

void RegisterBlock::OnRunCompleted() {
  irq_status_ |= regs::kIrqDone;
  if (ctx_.run.error != regs::ErrorCode::kNone) irq_status_ |= regs::kIrqError;
  irq_changed_.notify(sc_core::SC_ZERO_TIME);
}

void RegisterBlock::DriveIrq() { irq.write((irq_status_ & irq_enable_) != 0); }

}  // namespace npu::hw
