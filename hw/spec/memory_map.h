// Where things live on the system bus that the control core, the command processor and the DMA
// engines share. SRAM and the accumulator buffer are private to the NPU and not on this bus.
#pragma once

#include <cstdint>

namespace npu::spec {

inline constexpr uint64_t kNpuRegsBase = 0x1000'0000;
inline constexpr uint64_t kDramBase = 0x8000'0000;

}  // namespace npu::spec
