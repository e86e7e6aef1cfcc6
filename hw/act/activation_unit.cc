// ACT execution and timing.
#include "hw/act/activation_unit.h"

#include <algorithm>

#include <fmt/format.h>

#include "hw/common/in_order_queue.h"
#include "hw/common/payload.h"
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

bool ActivationUnit::AccessSram(tlm::tlm_command cmd, uint32_t addr, void* data, uint64_t bytes,
                                uint32_t count, uint32_t stride, sc_core::sc_time& offset,
                                uint64_t& ideal_cycles, uint64_t& conflict_cycles) {
  tlm::tlm_generic_payload gp;
  MakePayload(gp, cmd, addr, data, static_cast<uint32_t>(bytes));
  SramAccess shape;
  shape.count = count;
  shape.stride = stride;
  gp.set_extension(&shape);
  sc_core::sc_time delay = offset;
  sram->b_transport(gp, delay);
  gp.clear_extension(&shape);
  if (!gp.is_response_ok()) return false;
  ideal_cycles += shape.ideal_cycles;
  conflict_cycles += ctx_.clock.ToCycles(delay - offset) - shape.ideal_cycles;
  offset = delay;
  return true;
}

UnitResult ActivationUnit::Execute(const spec::ActArgs& act) {
  if (const std::string problem = spec::CheckAct(act); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "act: " + problem};
  }
  sc_core::sc_time offset = sc_core::SC_ZERO_TIME;
  uint64_t ideal = 0, conflict = 0;
  params_.resize(spec::ActParamBytes(act));
  if (!AccessSram(tlm::TLM_READ_COMMAND, act.param_addr, params_.data(), params_.size(), 1, 0,
                  offset, ideal, conflict)) {
    return {ErrorCode::kSramRange, fmt::format("act parameters at SRAM {:#x} ({} bytes) exceed "
                                               "the SRAM", act.param_addr, params_.size())};
  }
  sums_.resize(spec::ActAccEntries(act));
  tlm::tlm_generic_payload gp;
  MakePayload(gp, tlm::TLM_READ_COMMAND, uint64_t{act.acc_addr} * 4, sums_.data(),
              static_cast<uint32_t>(sums_.size() * 4));
  sc_core::sc_time no_delay = sc_core::SC_ZERO_TIME;
  acc->b_transport(gp, no_delay);
  if (!gp.is_response_ok()) {
    return {ErrorCode::kAccRange, fmt::format("act accumulator tile at entry {} ({} entries) "
                                              "exceeds the buffer", act.acc_addr, sums_.size())};
  }
  if (ctx_.compute_data) {
    if (spec::ComputeAct(act, sums_, params_, out_) != ErrorCode::kNone) {
      return {ErrorCode::kBadParameter, "act: a requantisation shift is outside 1..62"};
    }
  } else {
    out_.resize(sums_.size());
  }
  const bool dense = act.pixels == 1 || act.out_pixel_stride == act.channels;
  if (!AccessSram(tlm::TLM_WRITE_COMMAND, act.out_addr, out_.data(), out_.size(),
                  dense ? 1 : act.pixels, act.out_pixel_stride, offset, ideal, conflict)) {
    return {ErrorCode::kSramRange, fmt::format("act output at SRAM {:#x} exceeds the SRAM",
                                               act.out_addr)};
  }
  const uint64_t elements = spec::ActAccEntries(act);
  const uint64_t cycles = std::max(spec::ActComputeCycles(ctx_.config, elements), ideal) + conflict;
  ctx_.counters.AddQueue(spec::Queue::kVector, spec::regs::kBankConflictCycles, conflict);
  sc_core::wait(ctx_.clock.Cycles(cycles));
  return {};
}

}  // namespace npu::hw
