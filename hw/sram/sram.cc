// SRAM storage; bank timing through spec::SramBankTimer.
#include "hw/sram/sram.h"

#include <algorithm>

#include "hw/common/payload.h"
#include "hw/spec/sram_words.h"
#include "hw/spec/timing_model.h"

namespace npu::hw {

Sram::Sram(sc_core::sc_module_name name, const spec::NpuConfig& config, const Clock& clock)
    : sc_module(name), clock_(clock), banks_(config), mem_(config.sram().size_bytes()) {
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
  if (const OperandStream* stream = gp.get_extension<OperandStream>()) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const uint64_t start = banks_.BookStream(gp.get_address(), stream->words,
                                             clock_.ToCycles(now + delay), stream->cycles);
    delay = clock_.Cycles(start) - now;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  spec::SramAccess shape;
  if (!Move(gp, shape)) return;
  // Every time in the model is a whole number of cycles (hw/common/clock.h): the timer's are.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const spec::SramBankTimer::Booking booking = banks_.Book(shape, clock_.ToCycles(now + delay));
  if (SramAccess* ext = gp.get_extension<SramAccess>()) {
    ext->ideal_cycles = spec::CeilDiv(booking.words, banks_.banks());
    ext->words = booking.words;
  }
  delay = clock_.Cycles(booking.finish) - now;
}

unsigned Sram::TransportDbg(int port, tlm::tlm_generic_payload& gp) {
  spec::SramAccess shape;
  return Move(gp, shape) ? gp.get_data_length() : 0;
}

}  // namespace npu::hw
