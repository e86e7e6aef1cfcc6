// ACT, POOL, ELTWISE, LUT and RESIZE execution and timing.
#include "hw/act/activation_unit.h"

#include <fmt/format.h>

#include <algorithm>

#include "hw/common/in_order_queue.h"
#include "hw/common/payload.h"
#include "hw/spec/fp16.h"
#include "hw/spec/layer_norm.h"
#include "hw/spec/resize.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"

namespace npu::hw {

using spec::regs::ErrorCode;

namespace {

UnitResult SramRange(const spec::Instruction& insn, const spec::SramAccess& a) {
  return {ErrorCode::kSramRange, fmt::format("{}: {} of {} bytes at SRAM {:#x} exceeds the SRAM",
                                             spec::OpcodeName(insn.opcode),
                                             a.write ? "write" : "read", a.bytes(), a.addr)};
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
  SramAccessList accesses(insn);
  UnitResult result;
  if (const auto* act = std::get_if<spec::ActArgs>(&insn.args)) {
    result = ExecuteAct(*act, accesses, sram_timing);
  } else if (const auto* pool = std::get_if<spec::PoolArgs>(&insn.args)) {
    result = ExecutePool(*pool, accesses, sram_timing);
  } else if (const auto* lut = std::get_if<spec::LutArgs>(&insn.args)) {
    result = ExecuteLut(*lut, accesses, sram_timing);
  } else if (const auto* resize = std::get_if<spec::ResizeArgs>(&insn.args)) {
    result = ExecuteResize(*resize, accesses, sram_timing);
  } else if (const auto* dw = std::get_if<spec::DwConvArgs>(&insn.args)) {
    result = ExecuteDwConv(*dw, accesses, sram_timing);
  } else if (const auto* lnorm = std::get_if<spec::LnormArgs>(&insn.args)) {
    result = ExecuteLnorm(*lnorm, accesses, sram_timing);
  } else {
    result = ExecuteEltwise(std::get<spec::EltwiseArgs>(insn.args), accesses, sram_timing);
  }
  if (result.code == ErrorCode::kSramRange) return SramRange(insn, accesses.failed());
  if (!result.ok()) return result;
  // The unit's own time: what it takes alone (vector pipeline or SRAM, whichever is longer),
  // plus what its SRAM accesses lost to banks busy with other units.
  const uint64_t conflict = sram_timing.conflict_cycles;
  const uint64_t cycles = spec::IdealCycles(ctx_.config, insn) + conflict;
  ctx_.unit_timer.Wait(UnitTimer::Waker::kVector, cycles);
  result.bank_conflict_cycles = conflict;
  result.events.vector_ops = spec::VectorLaneOps(insn);
  sram_timing.AddTo(result.events);
  return result;
}

// Accesses: parameters, table (with use_table; reads), output (write).
UnitResult ActivationUnit::ExecuteAct(const spec::ActArgs& act, SramAccessList& accesses,
                                      SramTiming& sram_timing) {
  if (const std::string problem = spec::CheckAct(act); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "act: " + problem};
  }
  const size_t out = act.use_table ? 2 : 1;
  params_.resize(accesses[0].bytes());
  accesses.Bind(0, params_.data());
  table_.resize(act.use_table ? accesses[1].bytes() : 0);
  if (act.use_table) accesses.Bind(1, table_.data());
  if (!accesses.Reads(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
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
    if (spec::ComputeAct(act, sums_, params_, table_, out_) != ErrorCode::kNone) {
      return {ErrorCode::kBadParameter, "act: a requantisation shift is outside 1..62"};
    }
  } else {
    out_.resize(sums_.size() * spec::ElementBytes(act.fp16));
  }
  accesses.Bind(out, out_.data());
  if (!accesses.Writes(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  UnitResult done;
  done.events.acc_read_bytes = sums_.size() * 4;
  return done;
}

// Accesses: input (read), the sums added to (with accumulate; read), output (write).
UnitResult ActivationUnit::ExecutePool(const spec::PoolArgs& pool, SramAccessList& accesses,
                                       SramTiming& sram_timing) {
  if (const std::string problem = spec::CheckPool(pool); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "pool: " + problem};
  }
  const size_t out = pool.accumulate ? 2 : 1;
  in_a_.resize(accesses[0].bytes());
  accesses.Bind(0, in_a_.data());
  in_b_.resize(pool.accumulate ? accesses[1].bytes() : 0);
  if (pool.accumulate) accesses.Bind(1, in_b_.data());
  if (!accesses.Reads(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  if (ctx_.compute_data) {
    spec::ComputePool(pool, in_a_, in_b_, out_);
  } else {
    out_.resize(spec::PoolOutputBytes(pool));
  }
  accesses.Bind(out, out_.data());
  if (!accesses.Writes(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  return {};
}

// Accesses: a, b (reads), output (write).
UnitResult ActivationUnit::ExecuteEltwise(const spec::EltwiseArgs& eltwise,
                                          SramAccessList& accesses, SramTiming& sram_timing) {
  if (const std::string problem = spec::CheckEltwise(eltwise); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "eltwise: " + problem};
  }
  in_a_.resize(accesses[0].bytes());
  in_b_.resize(accesses[1].bytes());
  accesses.Bind(0, in_a_.data());
  accesses.Bind(1, in_b_.data());
  if (!accesses.Reads(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  if (ctx_.compute_data) {
    spec::ComputeEltwise(eltwise, in_a_, in_b_, out_);
  } else {
    out_.resize(spec::EltwiseOutBytes(eltwise));
  }
  accesses.Bind(2, out_.data());
  if (!accesses.Writes(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  return {};
}

// Accesses: table (unless bypass), input (reads), output (write).
UnitResult ActivationUnit::ExecuteLut(const spec::LutArgs& lut, SramAccessList& accesses,
                                      SramTiming& sram_timing) {
  if (const std::string problem = spec::CheckLut(lut); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "lut: " + problem};
  }
  const size_t in = lut.bypass ? 0 : 1;  // a bypass reads no table
  table_.resize(lut.bypass ? 0 : accesses[0].bytes());
  in_a_.resize(accesses[in].bytes());
  if (!lut.bypass) accesses.Bind(0, table_.data());
  accesses.Bind(in, in_a_.data());
  if (!accesses.Reads(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  if (ctx_.compute_data) {
    spec::ComputeLut(lut, in_a_, table_, out_);
  } else {
    out_.resize(spec::LutOutputBytes(lut));
  }
  accesses.Bind(in + 1, out_.data());
  if (!accesses.Writes(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  return {};
}

// Accesses: row taps, column taps, input pixels (reads), output (write). The taps are checked
// once read: a bad one faults before anything is written.
UnitResult ActivationUnit::ExecuteResize(const spec::ResizeArgs& resize, SramAccessList& accesses,
                                         SramTiming& sram_timing) {
  if (const std::string problem = spec::CheckResize(resize); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "resize: " + problem};
  }
  row_taps_.resize(accesses[0].bytes());
  col_taps_.resize(accesses[1].bytes());
  in_a_.resize(accesses[2].bytes());
  accesses.Bind(0, row_taps_.data());
  accesses.Bind(1, col_taps_.data());
  accesses.Bind(2, in_a_.data());
  if (!accesses.Reads(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  if (const std::string bad = spec::CheckResizeTaps(resize, row_taps_, col_taps_); !bad.empty()) {
    return {ErrorCode::kBadResizeTap, "resize: " + bad};
  }
  if (ctx_.compute_data) {
    spec::ComputeResize(resize, in_a_, row_taps_, col_taps_, out_);
  } else {
    out_.resize(uint64_t{resize.out_h} * resize.out_w * resize.channels);
  }
  accesses.Bind(3, out_.data());
  if (!accesses.Writes(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  return {};
}

// Accesses: parameters, weights, input (reads), output (write). Faults without a depthwise
// datapath (act.depthwise_taps = 0): the binary was compiled for another NPU.
UnitResult ActivationUnit::ExecuteDwConv(const spec::DwConvArgs& dw, SramAccessList& accesses,
                                         SramTiming& sram_timing) {
  if (ctx_.config.act().depthwise_taps() == 0) {
    return {ErrorCode::kBadInstruction,
            "dwconv: this NPU has no depthwise datapath (act.depthwise_taps = 0)"};
  }
  if (const std::string problem = spec::CheckDwConv(dw); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "dwconv: " + problem};
  }
  params_.resize(accesses[0].bytes());
  in_b_.resize(accesses[1].bytes());
  in_a_.resize(accesses[2].bytes());
  accesses.Bind(0, params_.data());
  accesses.Bind(1, in_b_.data());
  accesses.Bind(2, in_a_.data());
  if (!accesses.Reads(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  if (ctx_.compute_data) {
    if (spec::ComputeDwConv(dw, in_a_, in_b_, params_, out_) != ErrorCode::kNone) {
      return {ErrorCode::kBadParameter, "dwconv: a requantisation shift is outside 1..62"};
    }
  } else {
    out_.resize(uint64_t{dw.out_h} * dw.out_w * dw.channels);
  }
  accesses.Bind(3, out_.data());
  if (!accesses.Writes(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  UnitResult done;
  done.events.vector_macs = spec::ConvMacs(spec::DwConvAsConv(dw));
  return done;
}

// Accesses: parameters, input (reads), output (write). Faults without a normaliser
// (act.norm_dividers = 0): the binary was compiled for another NPU.
UnitResult ActivationUnit::ExecuteLnorm(const spec::LnormArgs& lnorm, SramAccessList& accesses,
                                        SramTiming& sram_timing) {
  if (ctx_.config.act().norm_dividers() == 0) {
    return {ErrorCode::kBadInstruction,
            "lnorm: this NPU has no layer normaliser (act.norm_dividers = 0)"};
  }
  if (const std::string problem = spec::CheckLnorm(lnorm); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "lnorm: " + problem};
  }
  params_.resize(accesses[0].bytes());
  in_a_.resize(accesses[1].bytes());
  accesses.Bind(0, params_.data());
  accesses.Bind(1, in_a_.data());
  if (!accesses.Reads(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  if (ctx_.compute_data) {
    if (spec::ComputeLnorm(lnorm, in_a_, params_, out_) != ErrorCode::kNone) {
      return {ErrorCode::kBadParameter,
              "lnorm: a requantisation shift is outside 1..62 or a gamma outside int8"};
    }
  } else {
    out_.resize(spec::LnormBytes(lnorm));
  }
  accesses.Bind(2, out_.data());
  if (!accesses.Writes(sram, ctx_.clock, sram_timing)) return {ErrorCode::kSramRange, ""};
  UnitResult done;
  done.events.vector_divides = spec::LnormBytes(lnorm) + lnorm.pixels;  // + a root a row
  return done;
}

}  // namespace npu::hw
