// The binary envelope: magic, format version, checksum.
#include "hw/spec/binary.h"

#include <fmt/format.h>
#include <lzma.h>

#include "hw/spec/config.h"
#include "hw/spec/crc64.h"
#include "hw/spec/isa.h"

namespace npu::spec {

// liblzma's CRC-64 is the XZ one, and runs several times faster than a byte-wise table (it
// checksums every binary twice per run, and model weights once, 10-50 MB each).
uint64_t Crc64(std::string_view bytes) { return Crc64(bytes, 0); }

uint64_t Crc64(std::string_view bytes, uint64_t previous) {
  return lzma_crc64(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), previous);
}

std::string SealProgram(const Program& program) {
  BinaryEnvelope envelope;
  envelope.set_magic(std::string(kBinaryMagic));
  envelope.set_format_version(kBinaryFormatVersion);
  program.SerializeToString(envelope.mutable_program());  // no copy of the (large) program
  envelope.set_checksum(Crc64(envelope.program()));
  return envelope.SerializeAsString();
}

void SetSingleNpuRun(Program& program) {
  program.clear_steps();
  NpuRun* run = program.add_steps()->mutable_npu();
  run->set_first_instruction(0);
  run->set_instruction_count(static_cast<uint32_t>(program.instructions().size() / kInsnBytes));
}

void SetArchitecture(Program& program, const NpuConfig& config) {
  program.set_arch_fingerprint(Fingerprint(config));
  program.set_arch_name(config.name());
  *program.mutable_arch_config() = config;
}

StatusOr<NpuConfig> RecordedArchitecture(const Program& program) {
  if (!program.has_arch_config()) {
    return NotFound(
        fmt::format("the binary does not record the config it was compiled for (architecture '{}', "
                    "fingerprint {:016x}): give it with --config",
                    program.arch_name(), program.arch_fingerprint()));
  }
  const uint64_t recorded = Fingerprint(program.arch_config());
  if (recorded != program.arch_fingerprint()) {
    return DataLoss(fmt::format(
        "the binary's recorded config has fingerprint {:016x}, but arch_fingerprint says {:016x} "
        "(file damaged or edited)",
        recorded, program.arch_fingerprint()));
  }
  return program.arch_config();
}

StatusOr<Program> OpenProgram(std::string_view file_bytes) {
  BinaryEnvelope envelope;
  if (!envelope.ParseFromArray(file_bytes.data(), static_cast<int>(file_bytes.size())) ||
      envelope.magic() != kBinaryMagic) {
    return InvalidArgument("not an NPU binary (no 'npu-binary' envelope)");
  }
  if (envelope.format_version() != kBinaryFormatVersion) {
    return FailedPrecondition(
        fmt::format("binary format version {} is not supported (this firmware reads version {})",
                    envelope.format_version(), kBinaryFormatVersion));
  }
  const uint64_t actual = Crc64(envelope.program());
  if (actual != envelope.checksum()) {
    return DataLoss(
        fmt::format("binary checksum mismatch: stored {:016x}, computed {:016x} (file "
                    "damaged)",
                    envelope.checksum(), actual));
  }
  Program program;
  if (!program.ParseFromString(envelope.program())) {
    return DataLoss("binary program section does not parse");
  }
  return program;
}

}  // namespace npu::spec
