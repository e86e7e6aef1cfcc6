// Address decoding on the system bus.
#include "hw/interconnect/interconnect.h"

#include "hw/spec/memory_map.h"
#include "hw/spec/regs.h"

namespace npu::hw {

Interconnect::Interconnect(sc_core::sc_module_name name, uint64_t dram_bytes)
    : sc_module(name), dram_bytes_(dram_bytes) {
  initiators.register_b_transport(this, &Interconnect::BTransport);
  initiators.register_transport_dbg(this, &Interconnect::TransportDbg);
}

Interconnect::Target Interconnect::Decode(tlm::tlm_generic_payload& gp) const {
  const uint64_t addr = gp.get_address();
  const uint64_t len = gp.get_data_length();
  auto inside = [&](uint64_t base, uint64_t size) {
    return addr >= base && addr - base < size && len <= size - (addr - base);
  };
  if (inside(spec::kDramBase, dram_bytes_)) {
    gp.set_address(addr - spec::kDramBase);
    return Target::kDram;
  }
  if (inside(spec::kNpuRegsBase, spec::regs::kRegisterBlockBytes)) {
    gp.set_address(addr - spec::kNpuRegsBase);
    return Target::kRegs;
  }
  return Target::kNone;
}

void Interconnect::BTransport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint64_t addr = gp.get_address();
  switch (Decode(gp)) {
    case Target::kDram:
      dram->b_transport(gp, delay);
      break;
    case Target::kRegs:
      regs->b_transport(gp, delay);
      break;
    case Target::kNone:
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      break;
  }
  gp.set_address(addr);
}

unsigned Interconnect::TransportDbg(int port, tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  unsigned n = 0;
  switch (Decode(gp)) {
    case Target::kDram:
      n = dram->transport_dbg(gp);
      break;
    case Target::kRegs:
      n = regs->transport_dbg(gp);
      break;
    case Target::kNone:
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      break;
  }
  gp.set_address(addr);
  return n;
}

}  // namespace npu::hw
