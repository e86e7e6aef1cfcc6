// The driver's run sequence: for each step, an NPU run (program, ring, sleep until the interrupt,
// read back) or a CPU op. hw/spec/driver_steps.h counts its register accesses between steps (the
// compiler predicts them): change one, change both.
#include <fmt/format.h>

#include "firmware/cpu/cpu_op.h"
#include "firmware/driver.h"
#include "hw/spec/memory_map.h"

namespace npu::fw {

namespace regs = spec::regs;

StatusOr<uint64_t> Driver::ReadTimer() {
  NPU_ASSIGN_OR_RETURN(const uint32_t lo, ReadReg(regs::kTimerLo));  // latches TIMER_HI
  NPU_ASSIGN_OR_RETURN(const uint32_t hi, ReadReg(regs::kTimerHi));
  return uint64_t{hi} << 32 | lo;
}

Status Driver::Run(RunLog& log) {
  if (!loaded_) return FailedPrecondition("no binary loaded");
  NPU_ASSIGN_OR_RETURN(const uint32_t status, ReadReg(regs::kStatus));
  if (status & regs::kStatusBusy) return FailedPrecondition("the NPU is busy with another run");
  log = RunLog{};
  NPU_TRY(WriteReg(regs::kDramBaseLo, static_cast<uint32_t>(spec::kDramBase)));
  NPU_TRY(WriteReg(regs::kDramBaseHi, static_cast<uint32_t>(spec::kDramBase >> 32)));
  NPU_TRY(WriteReg(regs::kIrqEnable, regs::kIrqDone | regs::kIrqError));
  for (int i = 0; i < program_.steps_size(); ++i) {
    const spec::Step& step = program_.steps(i);
    if (step.has_npu()) {
      NPU_TRY(RunNpu(step.npu(), log));
      continue;
    }
    StepTiming t;
    NPU_ASSIGN_OR_RETURN(t.begin_cycle, ReadTimer());
    NPU_TRY(RunCpuOp(bus_, step.cpu()).WithContext(fmt::format("step {}", i)));
    NPU_ASSIGN_OR_RETURN(t.end_cycle, ReadTimer());
    log.steps.push_back(t);
  }
  return Status::Ok();
}

Status Driver::RunNpu(const spec::NpuRun& run, RunLog& log) {
  NPU_TRY(WriteReg(regs::kInsnOffset,
                   program_.instruction_offset() + run.first_instruction() * spec::kInsnBytes));
  NPU_TRY(WriteReg(regs::kInsnCount, run.instruction_count()));
  NPU_TRY(WriteReg(regs::kIrqStatus, regs::kIrqDone | regs::kIrqError));
  NPU_TRY(WriteReg(regs::kDoorbell, 1));
  bus_.WaitForInterrupt();
  NPU_ASSIGN_OR_RETURN(const uint32_t irq, ReadReg(regs::kIrqStatus));
  NPU_TRY(WriteReg(regs::kIrqStatus, irq));  // acknowledge
  Counters counters;
  NPU_TRY(ReadCounters(counters));
  for (size_t i = 0; i < counters.size(); ++i) log.counters[i] += counters[i];
  NPU_ASSIGN_OR_RETURN(const uint32_t lo, ReadReg(regs::kRunStartLo));
  NPU_ASSIGN_OR_RETURN(const uint32_t hi, ReadReg(regs::kRunStartHi));
  const uint64_t begin = uint64_t{hi} << 32 | lo;
  log.steps.push_back({begin, begin + counters[regs::kCycles]});
  if (irq & regs::kIrqError) {
    NPU_ASSIGN_OR_RETURN(const uint32_t code, ReadReg(regs::kErrorCode));
    NPU_ASSIGN_OR_RETURN(const uint32_t insn, ReadReg(regs::kErrorInsn));
    return Internal(fmt::format("the NPU stopped with error '{}' at instruction {}",
                                regs::ErrorCodeName(regs::ErrorCode(code)),
                                run.first_instruction() + insn));
  }
  return Status::Ok();
}

Status Driver::ReadCounters(Counters& counters) {
  for (uint32_t id = 0; id < regs::kNumCounters; ++id) {
    NPU_ASSIGN_OR_RETURN(const uint32_t lo, ReadReg(regs::CounterOffset(id)));
    NPU_ASSIGN_OR_RETURN(const uint32_t hi, ReadReg(regs::CounterOffset(id) + 4));
    counters[id] = uint64_t{hi} << 32 | lo;
  }
  return Status::Ok();
}

StatusOr<std::vector<int8_t>> Driver::ReadOutput(size_t index) {
  if (!loaded_) return FailedPrecondition("no binary loaded");
  if (index >= static_cast<size_t>(program_.outputs_size())) {
    return InvalidArgument(
        fmt::format("output {} does not exist; the binary has {}", index, program_.outputs_size()));
  }
  const spec::TensorDesc& t = program_.outputs(index);
  std::vector<int8_t> data(t.size_bytes());
  if (!bus_.ReadBlock(spec::kDramBase + t.dram_offset(), reinterpret_cast<uint8_t*>(data.data()),
                      data.size())) {
    return Internal(fmt::format("bus error reading output '{}'", t.name()));
  }
  return data;
}

}  // namespace npu::fw
