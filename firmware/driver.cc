// The driver's load, run and read-back sequences.
#include "firmware/driver.h"

#include <fmt/format.h>

#include "firmware/cpu/cpu_op.h"
#include "hw/spec/memory_map.h"

namespace npu::fw {

namespace regs = spec::regs;

namespace {
constexpr size_t kBlockBytes = 64 * 1024;  // DRAM copies go in bus transactions of this size

bool Inside(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}
}  // namespace

Status Driver::WriteReg(uint32_t offset, uint32_t value) {
  if (!bus_.Write32(spec::kNpuRegsBase + offset, value)) {
    return Internal(fmt::format("bus error writing NPU register {:#x}", offset));
  }
  return Status::Ok();
}

StatusOr<uint32_t> Driver::ReadReg(uint32_t offset) {
  uint32_t value = 0;
  if (!bus_.Read32(spec::kNpuRegsBase + offset, value)) {
    return Internal(fmt::format("bus error reading NPU register {:#x}", offset));
  }
  return value;
}

uint64_t Driver::ImageAddress(uint32_t offset) const { return spec::kDramBase + offset; }

Status Driver::Probe() {
  NPU_ASSIGN_OR_RETURN(const uint32_t id, ReadReg(regs::kId));
  NPU_ASSIGN_OR_RETURN(const uint32_t version, ReadReg(regs::kVersion));
  if (id != regs::kIdValue || version != regs::kVersionValue) {
    return FailedPrecondition(
        fmt::format("no supported NPU: ID {:#x} version {} (expected {:#x} version {})", id,
                    version, regs::kIdValue, regs::kVersionValue));
  }
  return Status::Ok();
}

Status Driver::CheckArchitecture() {
  NPU_ASSIGN_OR_RETURN(const uint32_t lo, ReadReg(regs::kConfigFpLo));
  NPU_ASSIGN_OR_RETURN(const uint32_t hi, ReadReg(regs::kConfigFpHi));
  const uint64_t hardware = uint64_t{hi} << 32 | lo;
  if (program_.arch_fingerprint() != hardware) {
    return FailedPrecondition(fmt::format(
        "binary was compiled for architecture '{}' (fingerprint {:016x}), but this NPU's "
        "architecture has fingerprint {:016x}: recompile for this config",
        program_.arch_name(), program_.arch_fingerprint(), hardware));
  }
  return Status::Ok();
}

Status Driver::CheckLayout() const {
  const spec::Program& p = program_;
  if (p.dram_bytes() > dram_bytes_) {
    return ResourceExhausted(fmt::format("binary needs {} bytes of DRAM; the board has {}",
                                         p.dram_bytes(), dram_bytes_));
  }
  if (p.instructions().size() % spec::kInsnBytes != 0) {
    return DataLoss(
        fmt::format("instruction section of {} bytes is not a whole number of {}-byte "
                    "words",
                    p.instructions().size(), spec::kInsnBytes));
  }
  auto check = [&](std::string_view what, uint64_t offset, uint64_t size) {
    return Inside(offset, size, p.dram_bytes())
               ? Status::Ok()
               : DataLoss(fmt::format("{} at DRAM offset {} ({} bytes) lies outside the image's "
                                      "{} bytes",
                                      what, offset, size, p.dram_bytes()));
  };
  NPU_TRY(check("instruction section", p.instruction_offset(), p.instructions().size()));
  for (const spec::Segment& s : p.constants()) {
    NPU_TRY(check("constant segment '" + s.name() + "'", s.dram_offset(), s.data().size()));
  }
  for (const auto* tensors : {&p.inputs(), &p.outputs()}) {
    for (const spec::TensorDesc& t : *tensors) {
      NPU_TRY(check("tensor '" + t.name() + "'", t.dram_offset(), t.size_bytes()));
    }
  }
  return Status::Ok();
}

// Every step names instructions the program has, or a CPU kernel this firmware has over tensors
// inside the image: checked before anything is copied or run.
Status Driver::CheckSteps() const {
  const spec::Program& p = program_;
  if (p.steps_size() == 0) return DataLoss("the binary has no steps to run");
  const uint64_t words = p.instructions().size() / spec::kInsnBytes;
  for (int i = 0; i < p.steps_size(); ++i) {
    const spec::Step& step = p.steps(i);
    if (step.has_npu()) {
      const spec::NpuRun& run = step.npu();
      if (run.instruction_count() == 0 ||
          !Inside(run.first_instruction(), run.instruction_count(), words)) {
        return DataLoss(fmt::format(
            "step {}: NPU run of instructions [{}, +{}) outside the program's {} instructions", i,
            run.first_instruction(), run.instruction_count(), words));
      }
      continue;
    }
    if (!step.has_cpu())
      return DataLoss(fmt::format("step {} is neither an NPU run nor a CPU op", i));
    NPU_TRY(CheckCpuOp(step.cpu(), p.dram_bytes()).WithContext(fmt::format("step {}", i)));
  }
  return Status::Ok();
}

Status Driver::Load(std::string_view binary_bytes) {
  loaded_ = false;
  NPU_ASSIGN_OR_RETURN(program_, spec::OpenProgram(binary_bytes));
  NPU_TRY(CheckArchitecture());
  NPU_TRY(CheckLayout());
  NPU_TRY(CheckSteps());
  auto copy = [&](uint32_t offset, const std::string& bytes) {
    for (size_t done = 0; done < bytes.size(); done += kBlockBytes) {
      const size_t n = std::min(kBlockBytes, bytes.size() - done);
      if (!bus_.WriteBlock(ImageAddress(offset) + done,
                           reinterpret_cast<const uint8_t*>(bytes.data()) + done, n)) {
        return Internal(fmt::format("bus error writing DRAM at offset {}", offset + done));
      }
    }
    return Status::Ok();
  };
  NPU_TRY(copy(program_.instruction_offset(), program_.instructions()));
  for (const spec::Segment& s : program_.constants()) NPU_TRY(copy(s.dram_offset(), s.data()));
  loaded_ = true;
  return Status::Ok();
}

Status Driver::WriteInput(size_t index, const std::vector<int8_t>& data) {
  if (!loaded_) return FailedPrecondition("no binary loaded");
  if (index >= static_cast<size_t>(program_.inputs_size())) {
    return InvalidArgument(
        fmt::format("input {} does not exist; the binary has {}", index, program_.inputs_size()));
  }
  const spec::TensorDesc& t = program_.inputs(index);
  if (data.size() != t.size_bytes()) {
    return InvalidArgument(
        fmt::format("input '{}' takes {} bytes, got {}", t.name(), t.size_bytes(), data.size()));
  }
  if (!bus_.WriteBlock(ImageAddress(t.dram_offset()), reinterpret_cast<const uint8_t*>(data.data()),
                       data.size())) {
    return Internal(fmt::format("bus error writing input '{}'", t.name()));
  }
  return Status::Ok();
}

}  // namespace npu::fw
