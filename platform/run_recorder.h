// Keeps what the NPU recorded of each run: the NPU keeps per-instruction records and trace
// events for its current run only, so this copies them when a run completes, with where the run
// started (its INSN_OFFSET and its doorbell cycle). It observes only.
#pragma once

#include <cstdint>
#include <systemc>
#include <vector>

#include "hw/npu/npu.h"

namespace npu::platform {

struct NpuRunRecord {
  uint32_t insn_offset = 0;  // INSN_OFFSET of the run, from DRAM_BASE
  uint64_t begin_cycle = 0;  // the doorbell, NPU cycles since reset
  std::vector<hw::InsnRecord> records;
  std::vector<hw::TraceEvent> trace;
};

class RunRecorder : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(RunRecorder);
  RunRecorder(sc_core::sc_module_name name, hw::Npu& npu) : sc_module(name), npu_(npu) {
    SC_METHOD(Keep);
    sensitive << npu_.command_processor.completed;
    dont_initialize();
  }
  const std::vector<NpuRunRecord>& runs() const { return runs_; }

 private:
  void Keep() {
    const hw::RunState& run = npu_.run_state();
    runs_.push_back({run.insn_offset, run.begin_cycle, npu_.records(), npu_.trace()});
  }

  hw::Npu& npu_;
  std::vector<NpuRunRecord> runs_;
};

}  // namespace npu::platform
