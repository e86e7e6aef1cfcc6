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
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/regs.h"

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
  bool ok() const { return code == spec::regs::ErrorCode::kNone; }
};

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
  RunControl* control = nullptr;             // set once the command processor exists
  std::vector<TraceEvent>* trace = nullptr;  // null: not tracing
  bool compute_data = true;                  // false: timing only, no data computed
};

inline void Trace(const UnitContext& ctx, std::string engine, std::string name, uint64_t begin,
                  uint64_t end, int64_t insn) {
  if (ctx.trace != nullptr && end > begin) {
    ctx.trace->push_back({std::move(engine), std::move(name), begin, end, insn});
  }
}

}  // namespace npu::hw
