// A bench initiator for unit tests of memory targets: runs a test body as a SystemC thread with
// one initiator socket, so the body can issue timed transactions and check their delays.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/common/payload.h"

namespace npu::testing {

class BenchInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<BenchInitiator> socket{"socket"};

  SC_HAS_PROCESS(BenchInitiator);
  BenchInitiator(sc_core::sc_module_name name, std::function<void(BenchInitiator&)> body)
      : sc_module(name), body_(std::move(body)) {
    SC_THREAD(Run);
  }

  // Issues one transaction `offset` after now; returns the annotated delay.
  sc_core::sc_time Access(tlm::tlm_command cmd, uint64_t addr, std::vector<uint8_t>& data,
                          sc_core::sc_time offset = sc_core::SC_ZERO_TIME,
                          hw::SramAccess* shape = nullptr, bool* ok = nullptr) {
    tlm::tlm_generic_payload gp;
    hw::MakePayload(gp, cmd, addr, data.data(), static_cast<uint32_t>(data.size()));
    if (shape != nullptr) gp.set_extension(shape);
    sc_core::sc_time delay = offset;
    socket->b_transport(gp, delay);
    if (shape != nullptr) gp.clear_extension(shape);
    if (ok != nullptr) *ok = gp.is_response_ok();
    return delay;
  }

 private:
  void Run() { body_(*this); }
  std::function<void(BenchInitiator&)> body_;
};

}  // namespace npu::testing
