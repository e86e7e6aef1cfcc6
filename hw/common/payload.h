// Building TLM generic payloads, and the extension for strided SRAM accesses.
#pragma once

#include <cstdint>
#include <tlm>

namespace npu::hw {

inline void MakePayload(tlm::tlm_generic_payload& gp, tlm::tlm_command cmd, uint64_t addr,
                        void* data, uint32_t bytes) {
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(data));
  gp.set_data_length(bytes);
  gp.set_streaming_width(bytes);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_byte_enable_length(0);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

// Attached by SRAM initiators. In: the access is `count` runs of data_length/count bytes,
// `stride` bytes apart, moved as one transaction (the data buffer holds the runs back to back);
// banks see every run, so a stride that maps runs onto the same banks costs cycles. With
// elem_stride above 1 a run's bytes lie that far apart (a scattered LOAD burst).
// Out: the cycles the access would take with no other access in its banks, so the initiator can
// tell its own bank conflicts from the returned delay; and the bank words it touched (one bank
// access each), for the energy model.
struct SramAccess : tlm::tlm_extension<SramAccess> {
  uint32_t count = 1;
  uint32_t stride = 0;
  uint32_t elem_stride = 0;
  uint64_t ideal_cycles = 0;
  uint64_t words = 0;

  tlm::tlm_extension_base* clone() const override { return new SramAccess(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const SramAccess&>(other);
  }
};

// Attached by the MAC array to a read of no data: books the CONV's operand stream
// (spec::SramBankTimer::BookStream) of `words` bank words, the input at the payload's address,
// lasting `cycles`. The returned delay says when the stream starts.
struct OperandStream : tlm::tlm_extension<OperandStream> {
  uint64_t words = 0;
  uint64_t cycles = 0;

  tlm::tlm_extension_base* clone() const override { return new OperandStream(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const OperandStream&>(other);
  }
};

}  // namespace npu::hw
