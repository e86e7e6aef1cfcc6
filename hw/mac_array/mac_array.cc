// CONV execution and timing.
#include "hw/mac_array/mac_array.h"

#include <fmt/format.h>

#include <algorithm>

#include "hw/common/in_order_queue.h"
#include "hw/common/payload.h"
#include "hw/spec/operand_stream.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"
#include "hw/spec/unit_accesses.h"

namespace npu::hw {

using spec::regs::ErrorCode;

MacArray::MacArray(sc_core::sc_module_name name, UnitContext& ctx)
    : sc_module(name), queue(ctx.config.cmd().queue_depth()), ctx_(ctx) {
  SC_THREAD(Run);
}

void MacArray::Run() {
  RunInOrderQueue(ctx_, spec::Queue::kCompute, queue, "compute",
                  [this](const QueuedInsn& item) { return Execute(item.insn); });
}

bool MacArray::AccessAcc(tlm::tlm_command cmd, uint32_t entry, std::vector<int32_t>& data) {
  tlm::tlm_generic_payload gp;
  MakePayload(gp, cmd, uint64_t{entry} * 4, data.data(), static_cast<uint32_t>(data.size() * 4));
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  acc->b_transport(gp, delay);
  return gp.is_response_ok();
}

// Reads `region` into `data` without timing it: the operands' time is their stream's.
bool MacArray::ReadOperands(const spec::SramAccess& region, std::vector<int8_t>& data) {
  data.resize(region.bytes());
  if (data.empty()) return true;
  tlm::tlm_generic_payload gp;
  MakePayload(gp, tlm::TLM_READ_COMMAND, region.addr, data.data(),
              static_cast<uint32_t>(data.size()));
  return sram->transport_dbg(gp) == data.size();
}

// Books the CONV's operand stream of `cycles` from now; the cycle it starts.
uint64_t MacArray::StreamOperands(const spec::ConvArgs& conv, uint64_t words, uint64_t cycles) {
  tlm::tlm_generic_payload gp;
  MakePayload(gp, tlm::TLM_READ_COMMAND, conv.in_addr, nullptr, 0);
  OperandStream stream;
  stream.words = words;
  stream.cycles = cycles;
  gp.set_extension(&stream);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  sram->b_transport(gp, delay);
  gp.clear_extension(&stream);
  return ctx_.clock.ToCycles(sc_core::sc_time_stamp() + delay);
}

UnitResult MacArray::Execute(const spec::Instruction& insn) {
  const spec::ConvArgs& conv = std::get<spec::ConvArgs>(insn.args);
  if (const std::string problem = spec::CheckConv(conv); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "conv: " + problem};
  }
  const std::vector<spec::SramAccess> regions = spec::ConvOperandRegions(conv);
  if (!ReadOperands(regions[0], weights_) || !ReadOperands(regions[1], input_)) {
    return {ErrorCode::kSramRange, fmt::format("conv operands at SRAM {:#x}/{:#x} exceed the SRAM",
                                               conv.wt_addr, conv.in_addr)};
  }
  partial_sums_.resize(spec::ConvAccEntries(conv));
  if (conv.accumulate && !AccessAcc(tlm::TLM_READ_COMMAND, conv.acc_addr, partial_sums_)) {
    return {ErrorCode::kAccRange, fmt::format("conv accumulator tile at entry {} ({} entries) "
                                              "exceeds the buffer",
                                              conv.acc_addr, partial_sums_.size())};
  }
  if (ctx_.compute_data) spec::ComputeConv(conv, input_, weights_, partial_sums_);
  if (!AccessAcc(tlm::TLM_WRITE_COMMAND, conv.acc_addr, partial_sums_)) {
    return {ErrorCode::kAccRange, fmt::format("conv accumulator tile at entry {} ({} entries) "
                                              "exceeds the buffer",
                                              conv.acc_addr, partial_sums_.size())};
  }
  // What the CONV takes alone (its folds, each at least as long as its operand reads need of the
  // banks; without fill and drain if it continues the previous CONV's fold chain), plus how long
  // its operand stream waited for banks busy with other units.
  const uint64_t start = ctx_.clock.Now();
  const spec::ConvArgs* chained_after = chain_.Predecessor(ctx_.config, conv, start);
  const uint64_t ideal = spec::IdealCycles(ctx_.config, insn, chained_after);
  const spec::FoldReads reads = spec::ConvStreamReads(ctx_.config, conv);
  const uint64_t conflict = StreamOperands(conv, reads.words, ideal) - start;
  const uint64_t cycles = ideal + conflict;
  ctx_.counters.Add(spec::regs::kMacs, spec::ConvMacs(conv));
  ctx_.unit_timer.Wait(UnitTimer::Waker::kCompute, cycles);
  chain_.Ended(conv, start + cycles);
  UnitResult done;
  done.bank_conflict_cycles = conflict;
  done.sram_bound_cycles = ideal - spec::ConvArrayCycles(ctx_.config, conv, chained_after);
  done.events.macs = spec::ConvMacs(conv);
  done.events.fp16_macs = conv.fp16 ? done.events.macs : 0;
  done.events.sram_read_bytes = reads.bytes;
  done.events.sram_read_words = reads.words;
  const uint64_t acc_bytes = partial_sums_.size() * 4;
  done.events.acc_read_bytes = conv.accumulate ? acc_bytes : 0;
  done.events.acc_write_bytes = acc_bytes;
  return done;
}

}  // namespace npu::hw
