// CRC-64/XZ over data that comes in pieces: Crc64(b, Crc64(a)) == Crc64(a + b), Crc64(bytes) of
// binary.h being the first piece. For keys over several buffers (the quantisation cache's).
#pragma once

#include <cstdint>
#include <string_view>

namespace npu::spec {

uint64_t Crc64(std::string_view bytes, uint64_t previous);

}  // namespace npu::spec
