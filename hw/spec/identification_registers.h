// What the NPU's read-only identification registers read for a config: ID, VERSION, CONFIG_FP
// (the config's fingerprint), SRAM_BYTES and ACC_ENTRIES (regs.h). The register block answers
// with them; so does the fuzz targets' stand-in board, which must look like the same NPU to the
// firmware's Probe() and Load().
#pragma once

#include <cstdint>
#include <optional>

#include "hw/spec/npu_config.pb.h"

namespace npu::spec::regs {

// The value of register `offset` if it is an identification register of an NPU built from
// `config`, whose fingerprint (spec::Fingerprint, computed once by the caller) is `fingerprint`.
std::optional<uint32_t> IdentificationRegister(const NpuConfig& config, uint64_t fingerprint,
                                               uint64_t offset);

}  // namespace npu::spec::regs
