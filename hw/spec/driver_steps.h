// The driver's register accesses between steps: the time the firmware (firmware/driver_run.cc)
// spends on the control bus between one step's end and the next step's start. The platform
// measures it as the run's "firmware" cycles; the compiler's prediction (PredictModel) adds it, so
// a program of NPU runs and CPU ops is predicted as exactly as one NPU run. The driver makes
// these accesses and no others; the platform's end-to-end tests pin the counts.
#pragma once

#include <cstdint>

#include "hw/spec/regs.h"

namespace npu::spec {

// The register block answers every access in this many NPU cycles (hw/regs/register_block.cc).
inline constexpr uint64_t kRegisterAccessCycles = 1;

// A CPU op's time runs from the moment its first TIMER_LO read samples the timer to the moment
// its last one does; each sample is followed by the rest of that read and the TIMER_HI read.
inline constexpr uint64_t kAccessesAfterTimerSample = 2;
// After an NPU run's interrupt: IRQ_STATUS read and acknowledged, each counter's two words,
// RUN_START's two words.
inline constexpr uint64_t kAccessesAfterNpuRun = 2 + 2 * uint64_t{regs::kNumCounters} + 2;
// Before an NPU run: INSN_OFFSET, INSN_COUNT, and IRQ_STATUS cleared; the run starts (RUN_START)
// as the doorbell's write arrives.
inline constexpr uint64_t kAccessesBeforeNpuRun = 3;

// NPU cycles between the end of a step (an NPU run if `after_npu`, else a CPU op) and the start
// of the next (likewise).
constexpr uint64_t StepHandoffCycles(bool after_npu, bool before_npu) {
  const uint64_t after = after_npu ? kAccessesAfterNpuRun : kAccessesAfterTimerSample;
  return (after + (before_npu ? kAccessesBeforeNpuRun : 0)) * kRegisterAccessCycles;
}

}  // namespace npu::spec
