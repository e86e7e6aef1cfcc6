// SRAM storage and bank timing.
#include "hw/sram/sram.h"

#include <algorithm>

#include "hw/common/payload.h"
#include "hw/spec/sram_words.h"
#include "hw/spec/timing_model.h"

namespace npu::hw {

Sram::Sram(sc_core::sc_module_name name, const spec::NpuConfig& config, const Clock& clock)
    : sc_module(name),
      clock_(clock),
      banks_(config.sram().banks()),
      width_(config.sram().bank_width_bytes()),
      mem_(config.sram().size_bytes()),
      bank_free_(banks_, sc_core::SC_ZERO_TIME),
      scratch_words_(banks_) {
  socket.register_b_transport(this, &Sram::BTransport);
  socket.register_transport_dbg(this, &Sram::TransportDbg);
}

bool Sram::Move(tlm::tlm_generic_payload& gp, spec::SramAccess& shape) {
  const SramAccess* ext = gp.get_extension<SramAccess>();
  const uint64_t len = gp.get_data_length();
  shape = {gp.get_address(), len, 1, 0, gp.is_write()};
  if (ext != nullptr && ext->count > 1) {
    if (len % ext->count != 0) {
      gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return false;
    }
    shape.run = len / ext->count;
    shape.count = ext->count;
    shape.stride = ext->stride;
  }
  if (ext != nullptr) shape.elem_stride = ext->elem_stride;
  if (gp.get_byte_enable_ptr() != nullptr) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  if (shape.addr + spec::SramAccessSpan(shape) > mem_.size()) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  spec::MoveSramBytes(shape, mem_.data(), gp.get_data_ptr());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Sram::BTransport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  spec::SramAccess shape;
  if (!Move(gp, shape)) return;
  std::fill(scratch_words_.begin(), scratch_words_.end(), 0);
  spec::AddBankWords(shape, width_, scratch_words_);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time at = now + delay;
  sc_core::sc_time finish = at;
  uint64_t total_words = 0;
  for (uint64_t b = 0; b < banks_; ++b) {
    if (scratch_words_[b] == 0) continue;
    total_words += scratch_words_[b];
    bank_free_[b] = std::max(at, bank_free_[b]) + clock_.Cycles(scratch_words_[b]);
    finish = std::max(finish, bank_free_[b]);
  }
  if (SramAccess* ext = gp.get_extension<SramAccess>()) {
    ext->ideal_cycles = spec::CeilDiv(total_words, banks_);
    ext->words = total_words;
  }
  delay = finish - now;
}

unsigned Sram::TransportDbg(int port, tlm::tlm_generic_payload& gp) {
  spec::SramAccess shape;
  return Move(gp, shape) ? gp.get_data_length() : 0;
}

}  // namespace npu::hw
