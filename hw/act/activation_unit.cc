// ACT execution and timing.
#include "hw/act/activation_unit.h"

#include <fmt/format.h>

#include <algorithm>

#include "hw/common/in_order_queue.h"
#include "hw/common/payload.h"
#include "hw/common/sram_access.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"

namespace npu::hw {

using spec::regs::ErrorCode;

ActivationUnit::ActivationUnit(sc_core::sc_module_name name, UnitContext& ctx)
    : sc_module(name), queue(ctx.config.cmd().queue_depth()), ctx_(ctx) {
  SC_THREAD(Run);
}

void ActivationUnit::Run() {
  RunInOrderQueue(ctx_, spec::Queue::kVector, queue, "vector", [this](const QueuedInsn& item) {
    return Execute(std::get<spec::ActArgs>(item.insn.args));
  });
}

UnitResult ActivationUnit::Execute(const spec::ActArgs& act) {
  if (const std::string problem = spec::CheckAct(act); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "act: " + problem};
  }
  SramTiming sram_timing;
  params_.resize(spec::ActParamBytes(act));
  if (!TimedSramAccess(sram, ctx_.clock, tlm::TLM_READ_COMMAND, act.param_addr, params_.data(),
                       params_.size(), sram_timing)) {
    return {ErrorCode::kSramRange, fmt::format("act parameters at SRAM {:#x} ({} bytes) exceed "
                                               "the SRAM",
                                               act.param_addr, params_.size())};
  }
  sums_.resize(spec::ActAccEntries(act));
  tlm::tlm_generic_payload gp;
  MakePayload(gp, tlm::TLM_READ_COMMAND, uint64_t{act.acc_addr} * 4, sums_.data(),
              static_cast<uint32_t>(sums_.size() * 4));
  sc_core::sc_time no_delay = sc_core::SC_ZERO_TIME;
  acc->b_transport(gp, no_delay);
  if (!gp.is_response_ok()) {
    return {ErrorCode::kAccRange, fmt::format("act accumulator tile at entry {} ({} entries) "
                                              "exceeds the buffer",
                                              act.acc_addr, sums_.size())};
  }
  if (ctx_.compute_data) {
    if (spec::ComputeAct(act, sums_, params_, out_) != ErrorCode::kNone) {
      return {ErrorCode::kBadParameter, "act: a requantisation shift is outside 1..62"};
    }
  } else {
    out_.resize(sums_.size());
  }
  const bool dense = act.pixels == 1 || act.out_pixel_stride == act.channels;
  if (!TimedSramAccess(sram, ctx_.clock, tlm::TLM_WRITE_COMMAND, act.out_addr, out_.data(),
                       out_.size(), sram_timing, dense ? 1 : act.pixels, act.out_pixel_stride)) {
    return {ErrorCode::kSramRange,
            fmt::format("act output at SRAM {:#x} exceeds the SRAM", act.out_addr)};
  }
  const uint64_t elements = spec::ActAccEntries(act);
  const uint64_t conflict = sram_timing.conflict_cycles;
  const uint64_t cycles =
      std::max(spec::ActComputeCycles(ctx_.config, elements), sram_timing.ideal_cycles) + conflict;
  ctx_.counters.AddQueue(spec::Queue::kVector, spec::regs::kBankConflictCycles, conflict);
  sc_core::wait(ctx_.clock.Cycles(cycles));
  return {};
}

}  // namespace npu::hw
