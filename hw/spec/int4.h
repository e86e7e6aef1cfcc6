// INT4 weights (ConvArgs::weights_int4): rows of int4 values packed two per byte, each row
// starting on a byte (a row of n values takes ceil(n / 2) bytes), value i of a row in byte i / 2,
// the low nibble for even i, the high nibble for odd i, 4-bit two's complement in [-8, 7]. The
// compiler packs with PackInt4Rows; the MAC array and the reference unpack with UnpackInt4Rows.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace npu::spec {

inline constexpr int kInt4Min = -8, kInt4Max = 7;

constexpr uint64_t Int4RowBytes(uint64_t values) { return (values + 1) / 2; }

// `values` (rows x row_values, each in [-8, 7]) packed: rows x Int4RowBytes(row_values) bytes.
std::vector<uint8_t> PackInt4Rows(std::span<const int8_t> values, uint64_t row_values);
// The inverse: rows x row_values int8 values from rows x Int4RowBytes(row_values) bytes.
std::vector<int8_t> UnpackInt4Rows(std::span<const int8_t> packed, uint64_t rows,
                                   uint64_t row_values);

}  // namespace npu::spec
