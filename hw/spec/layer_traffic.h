// What a layer's DRAM traffic is: one rule for the compiler's prediction
// (compiler/network/model_program.cc) and the run report's measurement
// (platform/report/run_report.cc), so the two attribute a run's bytes to layers alike and the
// NPU layers' bytes add up to the DRAM counters' totals. An NPU layer reads the instruction
// words the command processor fetches for it (kInsnBytes each) and what its LOADs read, and
// writes what its STOREs write; a layer the control core runs reads its op's inputs and writes
// its outputs.
#pragma once

#include <cstdint>

#include "hw/spec/binary.pb.h"
#include "hw/spec/isa.h"

namespace npu::spec {

struct DramTraffic {
  uint64_t read_bytes = 0, write_bytes = 0;
};

// Adds one NPU instruction's fetch and, for LOAD and STORE, its data.
void AddInstructionTraffic(const Instruction& insn, DramTraffic& traffic);
// An instruction whose words could not be decoded still was fetched.
void AddFetchTraffic(DramTraffic& traffic);
// A CPU op's operands.
DramTraffic CpuOpTraffic(const CpuOp& op);

}  // namespace npu::spec
