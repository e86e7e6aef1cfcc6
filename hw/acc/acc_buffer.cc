// Accumulator buffer storage.
#include "hw/acc/acc_buffer.h"

#include <cstring>

namespace npu::hw {

AccBuffer::AccBuffer(sc_core::sc_module_name name, const spec::NpuConfig& config)
    : sc_module(name), mem_(config.mac().acc_buffer_bytes()) {
  socket.register_b_transport(this, &AccBuffer::BTransport);
  socket.register_transport_dbg(this, &AccBuffer::TransportDbg);
}

bool AccBuffer::Move(tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  const uint64_t len = gp.get_data_length();
  if (addr >= mem_.size() || len > mem_.size() - addr) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (gp.is_write()) {
    std::memcpy(mem_.data() + addr, gp.get_data_ptr(), len);
  } else {
    std::memcpy(gp.get_data_ptr(), mem_.data() + addr, len);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void AccBuffer::BTransport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  Move(gp);
}

unsigned AccBuffer::TransportDbg(int port, tlm::tlm_generic_payload& gp) {
  return Move(gp) ? gp.get_data_length() : 0;
}

}  // namespace npu::hw
