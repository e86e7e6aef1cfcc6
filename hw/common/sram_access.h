// One timed SRAM access from a unit, with its time split into what the access needs on its own
// (`ideal`) and what it lost to banks busy with other accesses (`conflict`). A unit's accesses
// for one instruction run back to back: each starts where the previous one ended (`offset`).
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>

#include "hw/common/clock.h"
#include "hw/common/payload.h"

namespace npu::hw {

struct SramTiming {
  sc_core::sc_time offset = sc_core::SC_ZERO_TIME;  // from now, where the next access starts
  uint64_t ideal_cycles = 0;
  uint64_t conflict_cycles = 0;
};

// `count` runs of bytes/count, `stride` apart (count 1: contiguous). False on a range error.
template <class Socket>
bool TimedSramAccess(Socket& socket, const Clock& clock, tlm::tlm_command cmd, uint64_t addr,
                     void* data, uint64_t bytes, SramTiming& timing, uint32_t count = 1,
                     uint32_t stride = 0) {
  tlm::tlm_generic_payload gp;
  MakePayload(gp, cmd, addr, data, static_cast<uint32_t>(bytes));
  SramAccess shape;
  shape.count = count;
  shape.stride = stride;
  gp.set_extension(&shape);
  sc_core::sc_time delay = timing.offset;
  socket->b_transport(gp, delay);
  gp.clear_extension(&shape);
  if (!gp.is_response_ok()) return false;
  timing.ideal_cycles += shape.ideal_cycles;
  timing.conflict_cycles += clock.ToCycles(delay - timing.offset) - shape.ideal_cycles;
  timing.offset = delay;
  return true;
}

}  // namespace npu::hw
