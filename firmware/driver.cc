// The driver's load, run and read-back sequences.
#include "firmware/driver.h"

#include <fmt/format.h>

#include "hw/spec/memory_map.h"

namespace npu::fw {

namespace regs = spec::regs;

namespace {
constexpr size_t kBlockBytes = 64 * 1024;  // DRAM copies go in bus transactions of this size
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
  NPU_ASSIGN_OR_RETURN(const uint32_t sram_bytes, ReadReg(regs::kSramBytes));
  NPU_ASSIGN_OR_RETURN(const uint32_t acc_entries, ReadReg(regs::kAccEntries));
  limits_.sram_bytes = sram_bytes;
  limits_.acc_entries = acc_entries;
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

Status Driver::Load(std::string_view binary_bytes) {
  loaded_ = false;
  if (limits_.sram_bytes == 0) return FailedPrecondition("Load before Probe");
  NPU_ASSIGN_OR_RETURN(program_, spec::OpenProgram(binary_bytes));
  NPU_TRY(CheckArchitecture());
  NPU_TRY(checks_ == LoadChecks::kAll ? CheckProgram(program_, limits_)
                                      : CheckProgramLayout(program_, limits_.dram_bytes));
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
