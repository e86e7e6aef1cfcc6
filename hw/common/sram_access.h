// One timed SRAM access from a unit, with its time split into what the access needs on its own
// (`ideal`) and what it lost to banks busy with other accesses (`conflict`). A unit's accesses
// for one instruction run back to back: each starts where the previous one ended (`offset`).
// SramAccessList makes exactly the accesses hw/spec/unit_accesses.h lists for an instruction.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/common/clock.h"
#include "hw/common/payload.h"
#include "hw/spec/unit_accesses.h"
#include "hw/spec/unit_events.h"

namespace npu::hw {

struct SramTiming {
  sc_core::sc_time offset = sc_core::SC_ZERO_TIME;  // from now, where the next access starts
  uint64_t ideal_cycles = 0;
  uint64_t conflict_cycles = 0;
  // What the accesses moved: bytes and bank words, read and written (for the energy model).
  uint64_t read_bytes = 0, write_bytes = 0, read_words = 0, write_words = 0;

  // Adds the traffic to a unit's event counts.
  void AddTo(spec::UnitEvents& events) const {
    events.sram_read_bytes += read_bytes;
    events.sram_write_bytes += write_bytes;
    events.sram_read_words += read_words;
    events.sram_write_words += write_words;
  }
};

// `count` runs of bytes/count, `stride` apart (count 1: contiguous), each run's bytes
// `elem_stride` apart (0, 1: contiguous). False on a range error.
template <class Socket>
bool TimedSramAccess(Socket& socket, const Clock& clock, tlm::tlm_command cmd, uint64_t addr,
                     void* data, uint64_t bytes, SramTiming& timing, uint32_t count = 1,
                     uint32_t stride = 0, uint32_t elem_stride = 0) {
  tlm::tlm_generic_payload gp;
  MakePayload(gp, cmd, addr, data, static_cast<uint32_t>(bytes));
  SramAccess shape;
  shape.count = count;
  shape.stride = stride;
  shape.elem_stride = elem_stride;
  gp.set_extension(&shape);
  sc_core::sc_time delay = timing.offset;
  socket->b_transport(gp, delay);
  gp.clear_extension(&shape);
  if (!gp.is_response_ok()) return false;
  timing.ideal_cycles += shape.ideal_cycles;
  (cmd == tlm::TLM_WRITE_COMMAND ? timing.write_bytes : timing.read_bytes) += bytes;
  (cmd == tlm::TLM_WRITE_COMMAND ? timing.write_words : timing.read_words) += shape.words;
  timing.conflict_cycles += clock.ToCycles(delay - timing.offset) - shape.ideal_cycles;
  timing.offset = delay;
  return true;
}

// The access `a` (its direction a.write), with `data` holding its a.bytes() bytes.
template <class Socket>
bool TimedSramAccess(Socket& socket, const Clock& clock, const spec::SramAccess& a, void* data,
                     SramTiming& timing) {
  return TimedSramAccess(socket, clock, a.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND,
                         a.addr, data, a.bytes(), timing, static_cast<uint32_t>(a.count),
                         static_cast<uint32_t>(a.stride), static_cast<uint32_t>(a.elem_stride));
}

// The SRAM accesses of one unit instruction (spec::UnitSramAccesses), made in their order: the
// leading reads into their buffers (Reads), then, once the unit has computed them, the writes
// from theirs (Writes). The unit binds each access to a buffer of access.bytes() bytes.
class SramAccessList {
 public:
  explicit SramAccessList(const spec::Instruction& insn)
      : accesses_(spec::UnitSramAccesses(insn)), data_(accesses_.size(), nullptr) {}

  size_t size() const { return accesses_.size(); }
  const spec::SramAccess& operator[](size_t i) const { return accesses_[i]; }
  void Bind(size_t i, void* data) { data_[i] = data; }

  // False on a range error; failed() is then the access that faulted.
  template <class Socket>
  bool Reads(Socket& socket, const Clock& clock, SramTiming& timing) {
    return Make(socket, clock, timing, false);
  }
  template <class Socket>
  bool Writes(Socket& socket, const Clock& clock, SramTiming& timing) {
    return Make(socket, clock, timing, true);
  }
  const spec::SramAccess& failed() const { return accesses_[next_]; }

 private:
  template <class Socket>
  bool Make(Socket& socket, const Clock& clock, SramTiming& timing, bool writes) {
    for (; next_ < accesses_.size() && accesses_[next_].write == writes; ++next_) {
      if (!TimedSramAccess(socket, clock, accesses_[next_], data_[next_], timing)) return false;
    }
    return true;
  }

  std::vector<spec::SramAccess> accesses_;
  std::vector<void*> data_;
  size_t next_ = 0;
};

}  // namespace npu::hw
