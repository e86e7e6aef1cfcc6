// A DMA channel's transfer: the bursts' timing rule is spec::DmaBurstPipeline's (shared with the
// compiler's replay); this file starts and advances it and gives it the memories, moving the
// bytes: loads write each burst to SRAM when its data arrives (scattered by the descriptor's
// sram_elem_stride), stores read each burst from SRAM when they issue it. Each burst makes the
// one SRAM access spec::BurstSramAccess says. Matches spec::DmaIdealCycles when no other traffic
// gets in the way.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "hw/common/payload.h"
#include "hw/common/sram_access.h"
#include "hw/dma/dma_engine.h"
#include "hw/spec/dma_burst_pipeline.h"

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

// The pipeline's memories as the SystemC model reaches them: DRAM through the bus, the SRAM
// through its socket, the bytes through staging slots (a LOAD holds each burst from its DRAM read
// to its SRAM write, so a slot per burst in flight; a STORE writes DRAM right after reading SRAM).
// A failed DRAM access ends the transfer: later calls do nothing.
class DmaEngine::ChannelMemories : public spec::DmaBurstPipeline::Memories {
 public:
  ChannelMemories(DmaEngine& engine, const std::vector<spec::Burst>& bursts, SramTiming& traffic)
      : e_(engine),
        bursts_(bursts),
        traffic_(traffic),
        load_(engine.direction_ == spec::Opcode::kLoad),
        slots_(load_ ? engine.ctx_.config.dma().outstanding_bursts() : 1),
        staging_(slots_ * engine.ctx_.config.dma().burst_bytes()) {}

  uint64_t Dram(size_t index, uint64_t at) override {
    if (!result_.ok()) return at;
    const spec::Burst& b = bursts_[index];
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    sc_core::sc_time delay = e_.ctx_.clock.Cycles(at) - now;
    if (!e_.DramAccess(load_ ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND, b.dram_offset,
                       Slot(index), b.bytes, delay)) {
      result_ = BusError(e_.direction_, b);
      return at;
    }
    return e_.ctx_.clock.ToCycles(now + delay);
  }

  uint64_t Sram(size_t index, uint64_t at) override {
    if (!result_.ok()) return at;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    SramTiming access;  // the range was checked before the first burst
    access.offset = e_.ctx_.clock.Cycles(at) - now;
    TimedSramAccess(e_.sram, e_.ctx_.clock, spec::BurstSramAccess(bursts_[index], e_.direction_),
                    Slot(index), access);
    AddBurst(access, traffic_);
    return e_.ctx_.clock.ToCycles(now + access.offset);
  }

  const UnitResult& result() const { return result_; }

 private:
  uint8_t* Slot(size_t index) {
    return &staging_[index % slots_ * e_.ctx_.config.dma().burst_bytes()];
  }

  DmaEngine& e_;
  const std::vector<spec::Burst>& bursts_;
  SramTiming& traffic_;
  const bool load_;
  const size_t slots_;
  std::vector<uint8_t> staging_;
  UnitResult result_;
};

void DmaEngine::StartTransfer(Transfer& t) {
  t.begin = ctx_.clock.Now();
  busy_.Begin(t.begin);
  const spec::DmaArgs& dma = std::get<spec::DmaArgs>(t.job->item.insn.args);
  const uint64_t sram_end = dma.sram_addr + spec::DmaSramExtent(dma);
  if (sram_end > ctx_.config.sram().size_bytes()) {
    t.job->result = {ErrorCode::kSramRange, fmt::format("{} touches SRAM up to {} of {} bytes",
                                                        spec::OpcodeName(direction_), sram_end,
                                                        ctx_.config.sram().size_bytes())};
    return;  // no pipeline: done at once
  }
  t.bursts = spec::SplitIntoBursts(ctx_.config, dma);
  t.memories = std::make_shared<ChannelMemories>(*this, t.bursts, t.traffic);
  t.pipeline.emplace(direction_ == spec::Opcode::kLoad, t.bursts.size(),
                     ctx_.config.dma().outstanding_bursts());
  t.wake = t.pipeline->Start(t.begin, *t.memories);
}

void DmaEngine::AdvanceTransfer(Transfer& t) { t.wake = t.pipeline->Advance(t.wake, *t.memories); }

bool DmaEngine::TransferDone(const Transfer& t) const {
  return !t.pipeline || t.pipeline->done() || !t.memories->result().ok();
}

UnitResult DmaEngine::TransferResult(const Transfer& t) {
  if (!t.pipeline) return t.job->result;  // refused before the first burst
  UnitResult result = t.memories->result();
  const spec::DmaArgs& dma = std::get<spec::DmaArgs>(t.job->item.insn.args);
  const uint64_t took = ctx_.clock.Now() - t.begin;
  const uint64_t ideal = spec::DmaIdealCycles(ctx_.config, direction_, t.bursts);
  // Bursts overlap, so the bank-conflict cycles of individual bursts can add up to more than was
  // lost; they explain at most the loss, and DRAM contention the rest.
  const uint64_t lost = took > ideal ? took - ideal : 0;
  result.bank_conflict_cycles = std::min(t.traffic.conflict_cycles, lost);
  result.dram_stall_cycles = lost - result.bank_conflict_cycles;
  const uint64_t bytes = spec::DmaBytes(dma);
  ctx_.counters.Add(
      direction_ == spec::Opcode::kLoad ? spec::regs::kDramReadBytes : spec::regs::kDramWriteBytes,
      bytes);
  result.events.dma_bytes = bytes;
  (direction_ == spec::Opcode::kLoad ? result.events.dram_read_bytes
                                     : result.events.dram_write_bytes) = bytes;
  t.traffic.AddTo(result.events);
  return result;
}

}  // namespace npu::hw
