// ACT, POOL and ADD execution and timing.
#include "hw/act/activation_unit.h"

#include <fmt/format.h>

#include <algorithm>

#include "hw/common/in_order_queue.h"
#include "hw/common/payload.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"

namespace npu::hw {

using spec::regs::ErrorCode;

namespace {
UnitResult SramRange(std::string_view what, uint64_t addr) {
  return {ErrorCode::kSramRange, fmt::format("{} at SRAM {:#x} exceeds the SRAM", what, addr)};
}
}  // namespace

ActivationUnit::ActivationUnit(sc_core::sc_module_name name, UnitContext& ctx)
    : sc_module(name), queue(ctx.config.cmd().queue_depth()), ctx_(ctx) {
  SC_THREAD(Run);
}

void ActivationUnit::Run() {
  RunInOrderQueue(ctx_, spec::Queue::kVector, queue, "vector",
                  [this](const QueuedInsn& item) { return Execute(item.insn); });
}

UnitResult ActivationUnit::Execute(const spec::Instruction& insn) {
  SramTiming sram_timing;
  UnitResult result;
  if (const auto* act = std::get_if<spec::ActArgs>(&insn.args)) {
    result = ExecuteAct(*act, sram_timing);
  } else if (const auto* pool = std::get_if<spec::PoolArgs>(&insn.args)) {
    result = ExecutePool(*pool, sram_timing);
  } else {
    result = ExecuteAdd(std::get<spec::AddArgs>(insn.args), sram_timing);
  }
  if (!result.ok()) return result;
  // The unit's own time: what it takes alone (vector pipeline or SRAM, whichever is longer),
  // plus what its SRAM accesses lost to banks busy with other units.
  const uint64_t conflict = sram_timing.conflict_cycles;
  const uint64_t cycles = spec::IdealCycles(ctx_.config, insn) + conflict;
  sc_core::wait(ctx_.clock.Cycles(cycles));
  result.bank_conflict_cycles = conflict;
  return result;
}

UnitResult ActivationUnit::ExecuteAct(const spec::ActArgs& act, SramTiming& sram_timing) {
  if (const std::string problem = spec::CheckAct(act); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "act: " + problem};
  }
  params_.resize(spec::ActParamBytes(act));
  if (!TimedSramAccess(sram, ctx_.clock, tlm::TLM_READ_COMMAND, act.param_addr, params_.data(),
                       params_.size(), sram_timing)) {
    return SramRange("act parameters", act.param_addr);
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
    return SramRange("act output", act.out_addr);
  }
  return {};
}

UnitResult ActivationUnit::ExecutePool(const spec::PoolArgs& pool, SramTiming& sram_timing) {
  if (const std::string problem = spec::CheckPool(pool); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "pool: " + problem};
  }
  in_a_.resize(spec::PoolInputBytes(pool));
  if (!TimedSramAccess(sram, ctx_.clock, tlm::TLM_READ_COMMAND, pool.in_addr, in_a_.data(),
                       in_a_.size(), sram_timing)) {
    return SramRange("pool input", pool.in_addr);
  }
  const uint64_t pixels = uint64_t{pool.out_h} * pool.out_w;
  if (ctx_.compute_data) {
    spec::ComputePool(pool, in_a_, out_);
  } else {
    out_.resize(pixels * pool.channels);
  }
  const bool dense = pixels == 1 || pool.out_pixel_stride == pool.channels;
  if (!TimedSramAccess(sram, ctx_.clock, tlm::TLM_WRITE_COMMAND, pool.out_addr, out_.data(),
                       out_.size(), sram_timing, dense ? 1 : uint32_t(pixels),
                       pool.out_pixel_stride)) {
    return SramRange("pool output", pool.out_addr);
  }
  return {};
}

UnitResult ActivationUnit::ExecuteAdd(const spec::AddArgs& add, SramTiming& sram_timing) {
  if (const std::string problem = spec::CheckAdd(add); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "add: " + problem};
  }
  in_a_.resize(add.count);
  in_b_.resize(add.count);
  if (!TimedSramAccess(sram, ctx_.clock, tlm::TLM_READ_COMMAND, add.a_addr, in_a_.data(), add.count,
                       sram_timing) ||
      !TimedSramAccess(sram, ctx_.clock, tlm::TLM_READ_COMMAND, add.b_addr, in_b_.data(), add.count,
                       sram_timing)) {
    return SramRange("add inputs", std::max(add.a_addr, add.b_addr));
  }
  if (ctx_.compute_data) {
    spec::ComputeAdd(add, in_a_, in_b_, out_);
  } else {
    out_.resize(add.count);
  }
  if (!TimedSramAccess(sram, ctx_.clock, tlm::TLM_WRITE_COMMAND, add.out_addr, out_.data(),
                       add.count, sram_timing)) {
    return SramRange("add output", add.out_addr);
  }
  return {};
}

}  // namespace npu::hw
