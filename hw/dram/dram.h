// DRAM: byte storage behind one data bus of dram.bytes_per_cycle with dram.latency_cycles from
// request to data. Requests are served in arrival order; a request of N bytes arriving at t
// completes at max(t + latency, bus free) + ceil(N / bytes_per_cycle).
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/common/clock.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::hw {

class Dram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Dram> socket{"socket"};

  Dram(sc_core::sc_module_name name, const spec::NpuConfig& config, const Clock& clock);
  uint64_t size() const { return size_; }
  // Cycles requests spent waiting for the bus behind other requests.
  uint64_t queued_cycles() const { return queued_cycles_; }

 private:
  void BTransport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& gp);
  // The functional part of an access; sets the response status.
  bool Move(tlm::tlm_generic_payload& gp);
  uint8_t* Page(uint64_t index, bool create);

  static constexpr uint64_t kPageBytes = 1 << 20;
  const spec::NpuConfig& config_;
  const Clock& clock_;
  uint64_t size_;
  std::vector<std::unique_ptr<uint8_t[]>> pages_;  // allocated on first write; unwritten reads 0
  sc_core::sc_time bus_free_ = sc_core::SC_ZERO_TIME;
  uint64_t queued_cycles_ = 0;
};

}  // namespace npu::hw
