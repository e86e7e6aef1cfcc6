// Sealing a Program into the on-disk envelope and opening it again. The firmware adds the checks
// that need the hardware (architecture fingerprint, DRAM size).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "hw/spec/binary.pb.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::spec {

inline constexpr std::string_view kBinaryMagic = "npu-binary";
// 2: programs are steps (NPU runs, CPU ops); 3: DWCONV's in_pixel_stride (its stride and
// dilation fields 3 bits: a version-2 DWCONV would decode wrongly).
inline constexpr uint32_t kBinaryFormatVersion = 3;

// CRC-64/XZ, the checksum of binaries and of config fingerprints.
uint64_t Crc64(std::string_view bytes);

std::string SealProgram(const Program& program);

// Makes the whole instruction stream the program's only step: one NPU run (programs of a single
// layer and hand-written tests).
void SetSingleNpuRun(Program& program);

// Records the architecture a program is compiled for: the fingerprint the firmware compares with
// the NPU's, the name for messages, and the whole config so that a host can build the platform
// from the file alone.
void SetArchitecture(Program& program, const NpuConfig& config);

// The config SetArchitecture recorded. Fails if there is none (a binary written before configs
// were recorded) or if it is not the one arch_fingerprint names (a damaged or edited file).
StatusOr<NpuConfig> RecordedArchitecture(const Program& program);

// Fails with a message naming the problem: not a binary, another format version, bad checksum,
// or an unreadable program.
StatusOr<Program> OpenProgram(std::string_view file_bytes);

}  // namespace npu::spec
