// CONV execution and timing.
#include "hw/mac_array/mac_array.h"

#include <fmt/format.h>

#include <algorithm>

#include "hw/common/in_order_queue.h"
#include "hw/common/payload.h"
#include "hw/common/sram_access.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"

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

// Accesses: weights, input (reads).
UnitResult MacArray::Execute(const spec::Instruction& insn) {
  const spec::ConvArgs& conv = std::get<spec::ConvArgs>(insn.args);
  if (const std::string problem = spec::CheckConv(conv); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "conv: " + problem};
  }
  SramTiming sram_timing;
  SramAccessList accesses(insn);
  weights_.resize(accesses[0].bytes());
  input_.resize(accesses[1].bytes());
  accesses.Bind(0, weights_.data());
  accesses.Bind(1, input_.data());
  if (!accesses.Reads(sram, ctx_.clock, sram_timing)) {
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
  // What the CONV takes alone (folds, without fill and drain if it continues the previous
  // CONV's fold chain, or SRAM reads, whichever is longer), plus what its reads lost to banks
  // busy with other units.
  const uint64_t conflict = sram_timing.conflict_cycles;
  const uint64_t start = ctx_.clock.Now();
  const spec::ConvArgs* chained_after = chain_.Predecessor(ctx_.config, conv, start);
  const uint64_t cycles = spec::IdealCycles(ctx_.config, insn, chained_after) + conflict;
  ctx_.counters.Add(spec::regs::kMacs, spec::ConvMacs(conv));
  sc_core::wait(ctx_.clock.Cycles(cycles));
  chain_.Ended(conv, start + cycles);
  UnitResult done;
  done.bank_conflict_cycles = conflict;
  done.events.macs = spec::ConvMacs(conv);
  sram_timing.AddTo(done.events);
  const uint64_t acc_bytes = partial_sums_.size() * 4;
  done.events.acc_read_bytes = conv.accumulate ? acc_bytes : 0;
  done.events.acc_write_bytes = acc_bytes;
  return done;
}

}  // namespace npu::hw
