// The accumulator buffer between the MAC array (writes int32 partial sums) and the vector unit
// (reads them). Dedicated ports on both sides, so accesses cost no extra cycles: their time is
// part of the units' own formulas. Addresses are byte addresses (entry * 4).
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/spec/npu_config.pb.h"

namespace npu::hw {

class AccBuffer : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<AccBuffer> socket{"socket"};

  AccBuffer(sc_core::sc_module_name name, const spec::NpuConfig& config);

 private:
  void BTransport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned TransportDbg(int port, tlm::tlm_generic_payload& gp);
  bool Move(tlm::tlm_generic_payload& gp);

  std::vector<uint8_t> mem_;
};

}  // namespace npu::hw
