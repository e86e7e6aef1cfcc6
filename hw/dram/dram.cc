// DRAM storage and timing.
#include "hw/dram/dram.h"

#include <algorithm>
#include <cstring>

#include "hw/spec/timing_model.h"

namespace npu::hw {

Dram::Dram(sc_core::sc_module_name name, const spec::NpuConfig& config, const Clock& clock)
    : sc_module(name),
      clock_(clock),
      controller_(config),
      size_(config.dram().size_bytes()),
      pages_(spec::CeilDiv(size_, kPageBytes)) {
  socket.register_b_transport(this, &Dram::BTransport);
  socket.register_transport_dbg(this, &Dram::TransportDbg);
}

uint8_t* Dram::Page(uint64_t index, bool create) {
  if (!pages_[index] && create) pages_[index] = std::make_unique<uint8_t[]>(kPageBytes);  // zeroed
  return pages_[index].get();
}

bool Dram::Move(tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  const uint64_t len = gp.get_data_length();
  if (gp.get_byte_enable_ptr() != nullptr || gp.get_streaming_width() < len) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  if (addr >= size_ || len > size_ - addr) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  const bool write = gp.is_write();
  uint8_t* data = gp.get_data_ptr();
  for (uint64_t done = 0; done < len;) {
    const uint64_t a = addr + done;
    const uint64_t n = std::min(len - done, kPageBytes - a % kPageBytes);
    uint8_t* page = Page(a / kPageBytes, write);
    if (write) {
      std::memcpy(page + a % kPageBytes, data + done, n);
    } else if (page != nullptr) {
      std::memcpy(data + done, page + a % kPageBytes, n);
    } else {
      std::memset(data + done, 0, n);
    }
    done += n;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Dram::BTransport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (!Move(gp)) return;
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const uint64_t done = controller_.Access(clock_.ToCycles(now + delay), gp.get_address(),
                                           gp.get_data_length(), gp.is_write());
  delay = clock_.Cycles(done) - now;
}

unsigned Dram::TransportDbg(tlm::tlm_generic_payload& gp) {
  return Move(gp) ? gp.get_data_length() : 0;
}

}  // namespace npu::hw
