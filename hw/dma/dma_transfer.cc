// The burst pipelines of a DMA channel: loads write each burst to SRAM when its data arrives
// (scattered by the descriptor's sram_elem_stride); stores read each burst from SRAM when they
// issue it. Each burst makes the one SRAM access spec::BurstSramAccess says. Matches
// spec::DmaIdealCycles when no other traffic gets in the way.
#include <fmt/format.h>

#include <algorithm>
#include <deque>

#include "hw/common/payload.h"
#include "hw/common/sram_access.h"
#include "hw/dma/dma_engine.h"

namespace npu::hw {

using spec::regs::ErrorCode;

bool DmaEngine::DramAccess(tlm::tlm_command cmd, uint32_t offset, uint8_t* data, uint32_t bytes,
                           sc_core::sc_time& delay) {
  tlm::tlm_generic_payload gp;
  MakePayload(gp, cmd, ctx_.run.dram_base + offset, data, bytes);
  bus->b_transport(gp, delay);
  return gp.is_response_ok();
}

namespace {
UnitResult BusError(spec::Opcode op, const spec::Burst& b) {
  return {ErrorCode::kBusError,
          fmt::format("{} burst at DRAM offset {:#x} ({} bytes) is outside DRAM",
                      spec::OpcodeName(op), b.dram_offset, b.bytes)};
}

// Adds one burst's SRAM access to a descriptor's total; the access's offset stays its own.
void AddBurst(const SramTiming& burst, SramTiming& total) {
  total.ideal_cycles += burst.ideal_cycles;
  total.conflict_cycles += burst.conflict_cycles;
  total.read_bytes += burst.read_bytes;
  total.write_bytes += burst.write_bytes;
  total.read_words += burst.read_words;
  total.write_words += burst.write_words;
}

}  // namespace

UnitResult DmaEngine::Load(const std::vector<spec::Burst>& bursts, SramTiming& traffic) {
  const size_t outstanding = ctx_.config.dma().outstanding_bursts();
  const uint32_t burst_bytes = ctx_.config.dma().burst_bytes();
  std::vector<uint8_t> staging(outstanding * burst_bytes);
  std::deque<InFlight> in_flight;
  sc_core::sc_time written = sc_core::sc_time_stamp();
  size_t next = 0;
  while (next < bursts.size() || !in_flight.empty()) {
    for (; next < bursts.size() && in_flight.size() < outstanding; ++next) {
      const size_t slot = next % outstanding;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      if (!DramAccess(tlm::TLM_READ_COMMAND, bursts[next].dram_offset, &staging[slot * burst_bytes],
                      bursts[next].bytes, delay)) {
        return BusError(direction_, bursts[next]);
      }
      in_flight.push_back({sc_core::sc_time_stamp() + delay, next, slot});
    }
    const InFlight f = in_flight.front();
    in_flight.pop_front();
    if (f.ready > sc_core::sc_time_stamp()) sc_core::wait(f.ready - sc_core::sc_time_stamp());
    const spec::Burst& b = bursts[f.burst];
    SramTiming write;  // the range was checked before the first burst
    TimedSramAccess(sram, ctx_.clock, spec::BurstSramAccess(b, direction_),
                    &staging[f.slot * burst_bytes], write);
    AddBurst(write, traffic);
    written = std::max(written, sc_core::sc_time_stamp() + write.offset);
  }
  if (written > sc_core::sc_time_stamp()) sc_core::wait(written - sc_core::sc_time_stamp());
  return {};
}

UnitResult DmaEngine::Store(const std::vector<spec::Burst>& bursts, SramTiming& traffic) {
  const size_t outstanding = ctx_.config.dma().outstanding_bursts();
  std::vector<uint8_t> staging(ctx_.config.dma().burst_bytes());
  std::deque<InFlight> in_flight;
  size_t next = 0;
  while (next < bursts.size() || !in_flight.empty()) {
    for (; next < bursts.size() && in_flight.size() < outstanding; ++next) {
      const spec::Burst& b = bursts[next];
      SramTiming read;  // the range was checked before the first burst
      TimedSramAccess(sram, ctx_.clock, spec::BurstSramAccess(b, direction_), staging.data(), read);
      AddBurst(read, traffic);
      sc_core::sc_time delay = read.offset;
      if (!DramAccess(tlm::TLM_WRITE_COMMAND, b.dram_offset, staging.data(), b.bytes, delay)) {
        return BusError(direction_, b);
      }
      in_flight.push_back({sc_core::sc_time_stamp() + delay, next, 0});
    }
    const InFlight f = in_flight.front();
    in_flight.pop_front();
    if (f.ready > sc_core::sc_time_stamp()) sc_core::wait(f.ready - sc_core::sc_time_stamp());
  }
  return {};
}

}  // namespace npu::hw
