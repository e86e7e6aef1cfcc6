// CONV execution and timing.
#include "hw/mac_array/mac_array.h"

#include <algorithm>

#include <fmt/format.h>

#include "hw/common/in_order_queue.h"
#include "hw/common/payload.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"

namespace npu::hw {

using spec::regs::ErrorCode;

MacArray::MacArray(sc_core::sc_module_name name, UnitContext& ctx)
    : sc_module(name), queue(ctx.config.cmd().queue_depth()), ctx_(ctx) {
  SC_THREAD(Run);
}

void MacArray::Run() {
  RunInOrderQueue(ctx_, spec::Queue::kCompute, queue, "compute", [this](const QueuedInsn& item) {
    return Execute(std::get<spec::ConvArgs>(item.insn.args));
  });
}

bool MacArray::ReadSram(uint32_t addr, uint64_t bytes, std::vector<int8_t>& data,
                        sc_core::sc_time& offset, uint64_t& ideal_cycles,
                        uint64_t& conflict_cycles) {
  data.resize(bytes);
  tlm::tlm_generic_payload gp;
  MakePayload(gp, tlm::TLM_READ_COMMAND, addr, data.data(), static_cast<uint32_t>(bytes));
  SramAccess shape;
  gp.set_extension(&shape);
  sc_core::sc_time delay = offset;
  sram->b_transport(gp, delay);
  gp.clear_extension(&shape);
  if (!gp.is_response_ok()) return false;
  ideal_cycles += shape.ideal_cycles;
  conflict_cycles += ctx_.clock.ToCycles(delay - offset) - shape.ideal_cycles;
  offset = delay;  // the next operand read follows this one
  return true;
}

bool MacArray::AccessAcc(tlm::tlm_command cmd, uint32_t entry, std::vector<int32_t>& data) {
  tlm::tlm_generic_payload gp;
  MakePayload(gp, cmd, uint64_t{entry} * 4, data.data(), static_cast<uint32_t>(data.size() * 4));
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  acc->b_transport(gp, delay);
  return gp.is_response_ok();
}

UnitResult MacArray::Execute(const spec::ConvArgs& conv) {
  if (const std::string problem = spec::CheckConv(conv); !problem.empty()) {
    return {ErrorCode::kBadInstruction, "conv: " + problem};
  }
  sc_core::sc_time offset = sc_core::SC_ZERO_TIME;
  uint64_t ideal = 0, conflict = 0;
  if (!ReadSram(conv.wt_addr, spec::ConvWeightBytes(conv), weights_, offset, ideal, conflict) ||
      !ReadSram(conv.in_addr, spec::ConvInputBytes(conv), input_, offset, ideal, conflict)) {
    return {ErrorCode::kSramRange, fmt::format("conv operands at SRAM {:#x}/{:#x} exceed the SRAM",
                                               conv.wt_addr, conv.in_addr)};
  }
  partial_sums_.resize(spec::ConvAccEntries(conv));
  if (conv.accumulate && !AccessAcc(tlm::TLM_READ_COMMAND, conv.acc_addr, partial_sums_)) {
    return {ErrorCode::kAccRange, fmt::format("conv accumulator tile at entry {} ({} entries) "
                                              "exceeds the buffer", conv.acc_addr,
                                              partial_sums_.size())};
  }
  if (ctx_.compute_data) spec::ComputeConv(conv, input_, weights_, partial_sums_);
  if (!AccessAcc(tlm::TLM_WRITE_COMMAND, conv.acc_addr, partial_sums_)) {
    return {ErrorCode::kAccRange, fmt::format("conv accumulator tile at entry {} ({} entries) "
                                              "exceeds the buffer", conv.acc_addr,
                                              partial_sums_.size())};
  }
  const uint64_t cycles = std::max(spec::ConvComputeCycles(ctx_.config, conv), ideal) + conflict;
  ctx_.counters.Add(spec::regs::kMacs, spec::ConvMacs(conv));
  ctx_.counters.AddQueue(spec::Queue::kCompute, spec::regs::kBankConflictCycles, conflict);
  sc_core::wait(ctx_.clock.Cycles(cycles));
  return {};
}

}  // namespace npu::hw
