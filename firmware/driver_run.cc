// The driver's run sequence: program, ring, sleep until the interrupt, read back.
#include <fmt/format.h>

#include "firmware/driver.h"
#include "hw/spec/memory_map.h"

namespace npu::fw {

namespace regs = spec::regs;

Status Driver::Run(Counters& counters) {
  if (!loaded_) return FailedPrecondition("no binary loaded");
  NPU_ASSIGN_OR_RETURN(const uint32_t status, ReadReg(regs::kStatus));
  if (status & regs::kStatusBusy) return FailedPrecondition("the NPU is busy with another run");
  const uint32_t count = static_cast<uint32_t>(program_.instructions().size() / spec::kInsnBytes);
  NPU_TRY(WriteReg(regs::kDramBaseLo, static_cast<uint32_t>(spec::kDramBase)));
  NPU_TRY(WriteReg(regs::kDramBaseHi, static_cast<uint32_t>(spec::kDramBase >> 32)));
  NPU_TRY(WriteReg(regs::kInsnOffset, program_.instruction_offset()));
  NPU_TRY(WriteReg(regs::kInsnCount, count));
  NPU_TRY(WriteReg(regs::kIrqStatus, regs::kIrqDone | regs::kIrqError));
  NPU_TRY(WriteReg(regs::kIrqEnable, regs::kIrqDone | regs::kIrqError));
  NPU_TRY(WriteReg(regs::kDoorbell, 1));
  bus_.WaitForInterrupt();
  NPU_ASSIGN_OR_RETURN(const uint32_t irq, ReadReg(regs::kIrqStatus));
  NPU_TRY(WriteReg(regs::kIrqStatus, irq));  // acknowledge
  NPU_TRY(ReadCounters(counters));
  if (irq & regs::kIrqError) {
    NPU_ASSIGN_OR_RETURN(const uint32_t code, ReadReg(regs::kErrorCode));
    NPU_ASSIGN_OR_RETURN(const uint32_t insn, ReadReg(regs::kErrorInsn));
    return Internal(fmt::format("the NPU stopped with error '{}' at instruction {}",
                                regs::ErrorCodeName(regs::ErrorCode(code)), insn));
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
