// Packing int4 weight rows (int4.h).
#include "hw/spec/int4.h"

namespace npu::spec {

std::vector<uint8_t> PackInt4Rows(std::span<const int8_t> values, uint64_t row_values) {
  const uint64_t rows = row_values == 0 ? 0 : values.size() / row_values;
  const uint64_t row_bytes = Int4RowBytes(row_values);
  std::vector<uint8_t> packed(rows * row_bytes, 0);
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t i = 0; i < row_values; ++i) {
      const uint8_t nibble = static_cast<uint8_t>(values[r * row_values + i]) & 0x0f;
      packed[r * row_bytes + i / 2] |= static_cast<uint8_t>(i % 2 == 0 ? nibble : nibble << 4);
    }
  }
  return packed;
}

std::vector<int8_t> UnpackInt4Rows(std::span<const int8_t> packed, uint64_t rows,
                                   uint64_t row_values) {
  const uint64_t row_bytes = Int4RowBytes(row_values);
  std::vector<int8_t> values(rows * row_values);
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t i = 0; i < row_values; ++i) {
      const auto byte = static_cast<uint8_t>(packed[r * row_bytes + i / 2]);
      const int nibble = i % 2 == 0 ? byte & 0x0f : byte >> 4;
      values[r * row_values + i] = static_cast<int8_t>(nibble >= 8 ? nibble - 16 : nibble);
    }
  }
  return values;
}

}  // namespace npu::spec
