// DRAM: byte storage, timed by spec::DramController (hw/spec/dram_controller.h: the IDEAL bus or
// a JEDEC device's banks and channels). This module only converts SystemC time to cycles and back;
// requests are served in the order b_transport receives them.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/common/clock.h"
#include "hw/spec/dram_controller.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::hw {

class Dram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Dram> socket{"socket"};

  Dram(sc_core::sc_module_name name, const spec::NpuConfig& config, const Clock& clock);
  uint64_t size() const { return size_; }
  // Rows, refreshes, data and busy cycles; queued_cycles under IDEAL.
  const spec::DramStats& stats() const { return controller_.stats(); }

 private:
  void BTransport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned TransportDbg(tlm::tlm_generic_payload& gp);
  // The functional part of an access; sets the response status.
  bool Move(tlm::tlm_generic_payload& gp);
  uint8_t* Page(uint64_t index, bool create);

  static constexpr uint64_t kPageBytes = 1 << 20;
  const Clock& clock_;
  spec::DramController controller_;
  uint64_t size_;
  std::vector<std::unique_ptr<uint8_t[]>> pages_;  // allocated on first write; unwritten reads 0
};

}  // namespace npu::hw
