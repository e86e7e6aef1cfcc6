// Shared by the platform tests of single instructions: a program that runs one vector
// instruction on a blob, an instruction's cycles on the platform, and the check that the
// compiler's exact replay times a hand-built program instruction by instruction as the platform
// ran it.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "platform/run.h"

namespace npu::testing {

// The program: LOAD the blob (at DRAM input kVectorOpIn) to SRAM 0, `insn` once it is there
// (waiting for the load, signalling the store), STORE `out_bytes` from SRAM `result_addr` (to the
// output at kVectorOpOut).
inline constexpr uint32_t kVectorOpIn = 1 << 20, kVectorOpOut = 2 << 20;
struct VectorOpRun {
  std::vector<spec::Instruction> insns;
  StatusOr<platform::RunResult> result = InvalidArgument("not run");
};
VectorOpRun RunVectorOp(const spec::NpuConfig& config, const std::vector<int8_t>& blob,
                        spec::Instruction insn, uint32_t result_addr, uint32_t out_bytes,
                        fw::LoadChecks checks = fw::LoadChecks::kAll);

// Instruction `insn`'s cycles, start to end.
uint64_t Duration(const platform::RunResult& run, size_t insn);

// EXPECTs every instruction of `insns` to start and end on the cycle `run` recorded, and the
// replay's total to be the run's cycle counter.
void ExpectReplayMatchesRun(const spec::NpuConfig& config,
                            const std::vector<spec::Instruction>& insns,
                            const platform::RunResult& run);

}  // namespace npu::testing
