// IdentificationRegister.
#include "hw/spec/identification_registers.h"

#include "hw/spec/config.h"
#include "hw/spec/regs.h"

namespace npu::spec::regs {

std::optional<uint32_t> IdentificationRegister(const NpuConfig& config, uint64_t fingerprint,
                                               uint64_t offset) {
  switch (offset) {
    case kId:
      return kIdValue;
    case kVersion:
      return kVersionValue;
    case kConfigFpLo:
      return static_cast<uint32_t>(fingerprint);
    case kConfigFpHi:
      return static_cast<uint32_t>(fingerprint >> 32);
    case kSramBytes:
      return config.sram().size_bytes();
    case kAccEntries:
      return static_cast<uint32_t>(AccBufferEntries(config));
    default:
      return std::nullopt;
  }
}

}  // namespace npu::spec::regs
