// Index arithmetic of the CPU kernels over row-major tensors of any rank: shapes from tensor
// descriptions, strides, and numpy broadcasting. Internal to firmware/cpu.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "hw/spec/binary.pb.h"

namespace npu::fw::cpu {

using Dims = std::vector<int64_t>;

Dims DimsOf(const spec::TensorDesc& t);
Dims StridesOf(const Dims& dims);
int64_t Count(const Dims& dims);

// The numpy broadcast of shapes a and b (aligned at the last dim, each dim equal or 1); nullopt
// if they do not broadcast.
std::optional<Dims> Broadcast(const Dims& a, const Dims& b);

// For every element of `out`, the index of the element of `in` (which broadcasts to `out`,
// aligned at the last dim) it reads.
std::vector<int64_t> BroadcastSource(const Dims& in, const Dims& out);

// Advances a row-major position over `dims`; false after the last.
bool Next(std::vector<int64_t>& pos, const Dims& dims);

}  // namespace npu::fw::cpu
