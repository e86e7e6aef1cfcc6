// What every execution unit of the NPU shares: the config, the clock, the counters, the tokens,
// the run's registers, and the command processor's retire/fault interface.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <systemc>

#include "hw/common/clock.h"
#include "hw/common/perf_counters.h"
#include "hw/common/token_sync.h"
#include "hw/common/unit_timer.h"
#include "hw/spec/insn_record.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/regs.h"
#include "hw/spec/unit_events.h"

namespace npu::hw {

// An instruction in a queue, with its index in the stream (for error reports and traces).
struct QueuedInsn {
  spec::Instruction insn;
  uint32_t index = 0;
};
// sc_fifo<T> needs T printable.
inline std::ostream& operator<<(std::ostream& os, const QueuedInsn& q) {
  return os << "#" << q.index << " " << spec::Disassemble(q.insn);
}

// The registers a run is programmed with, and its outcome. Owned by the Npu; written by the
// register block (programming) and the command processor (outcome).
struct RunState {
  uint64_t dram_base = 0;
  uint32_t insn_offset = 0;
  uint32_t insn_count = 0;
  uint64_t begin_cycle = 0;  // when the doorbell started the run: reports count from here
  bool busy = false;
  bool done = false;
  spec::regs::ErrorCode error = spec::regs::ErrorCode::kNone;
  uint32_t error_insn = 0;
  std::string error_detail;  // for the simulation log; firmware sees only the registers
};

// One engine's interval of activity, for the timeline trace.
struct TraceEvent {
  std::string engine;  // "load.0", "compute", "vector", "store.0", "fetch"
  std::string name;    // opcode, or "wait input" / "wait buffer"
  uint64_t begin_cycle;
  uint64_t end_cycle;
  int64_t insn = -1;
};

// What executing one instruction came to.
struct UnitResult {
  spec::regs::ErrorCode code = spec::regs::ErrorCode::kNone;
  std::string detail;
  uint64_t bank_conflict_cycles = 0;  // part of its time lost to SRAM banks busy elsewhere
  uint64_t dram_stall_cycles = 0;     // part of its time lost to other DRAM traffic
  uint64_t sram_bound_cycles = 0;     // part of a CONV's time its folds waited on operand reads
  spec::UnitEvents events{};          // what the unit did for it, for the energy model
  bool ok() const { return code == spec::regs::ErrorCode::kNone; }
};

// Where one instruction's time went (spec::InsnRecord: the compiler's replay predicts the same
// record), for per-layer attribution in reports.
using InsnRecord = spec::InsnRecord;

// Implemented by the command processor.
class RunControl {
 public:
  virtual ~RunControl() = default;
  virtual void Retire(spec::Queue queue, uint32_t index) = 0;
  // Stops the run with an error; later instructions are dropped.
  virtual void Fault(spec::regs::ErrorCode code, uint32_t index, const std::string& detail) = 0;
  virtual bool faulted() const = 0;
};

struct UnitContext {
  const spec::NpuConfig& config;
  const Clock& clock;
  PerfCounters& counters;
  TokenSync& tokens;
  RunState& run;
  UnitTimer& unit_timer;                       // every unit's timed waits, in same-cycle order
  RunControl* control = nullptr;               // set once the command processor exists
  std::vector<TraceEvent>* trace = nullptr;    // null: not tracing
  std::vector<InsnRecord>* records = nullptr;  // one per instruction of the run
  bool compute_data = true;                    // false: timing only, no data computed
};

// Records what instruction `index` did (the command processor sized `records` for the run).
inline void Record(const UnitContext& ctx, uint32_t index, spec::Queue queue, uint64_t start,
                   uint64_t end, uint64_t wait_input, uint64_t wait_buffer,
                   const UnitResult& result) {
  if (ctx.records == nullptr || index >= ctx.records->size()) return;
  InsnRecord& r = (*ctx.records)[index];
  r.start = start - ctx.run.begin_cycle;
  r.end = end - ctx.run.begin_cycle;
  r.wait_input = wait_input;
  r.wait_buffer = wait_buffer;
  r.bank_conflict = result.bank_conflict_cycles;
  r.dram_stall = result.dram_stall_cycles;
  r.sram_bound = result.sram_bound_cycles;
  r.queue = static_cast<int8_t>(queue);
  r.events += result.events;  // after the fetch's, recorded at dispatch
}

// Instruction `index` entered its queue (dispatch) or gave its tokens (retire) now.
inline void RecordDispatch(const UnitContext& ctx, uint32_t index, uint64_t now) {
  if (ctx.records != nullptr && index < ctx.records->size()) {
    (*ctx.records)[index].dispatch = now - ctx.run.begin_cycle;
  }
}
inline void RecordRetire(const UnitContext& ctx, uint32_t index, uint64_t now) {
  if (ctx.records != nullptr && index < ctx.records->size()) {
    (*ctx.records)[index].retire = now - ctx.run.begin_cycle;
  }
}

// Books instruction `index`'s fetch: its bytes of the fetch's DRAM read, and its decode.
inline void RecordFetch(const UnitContext& ctx, uint32_t index) {
  if (ctx.records == nullptr || index >= ctx.records->size()) return;
  spec::UnitEvents& e = (*ctx.records)[index].events;
  e.dram_read_bytes += spec::kInsnBytes;
  e.fetched_instructions += 1;
}

inline void Trace(const UnitContext& ctx, std::string engine, std::string name, uint64_t begin,
                  uint64_t end, int64_t insn) {
  if (ctx.trace != nullptr && end > begin) {
    ctx.trace->push_back({std::move(engine), std::move(name), begin - ctx.run.begin_cycle,
                          end - ctx.run.begin_cycle, insn});
  }
}

// The token waits that began at `begin`: Acquire takes upstream tokens (input) before
// downstream ones (buffer), so the two waits are consecutive intervals in that order.
inline void TraceWaits(const UnitContext& ctx, const std::string& engine, uint64_t begin,
                       uint64_t input_cycles, uint64_t buffer_cycles, int64_t insn) {
  Trace(ctx, engine, "wait input", begin, begin + input_cycles, insn);
  Trace(ctx, engine, "wait buffer", begin + input_cycles, begin + input_cycles + buffer_cycles,
        insn);
}

}  // namespace npu::hw
