// Shape arithmetic for the quantised IR's N-D ops: numpy broadcasting and the index maps the
// kernels walk. Internal to compiler/qinterp.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/types.h"

namespace npu::compiler::qinterp {

// numpy's broadcast of two shapes (aligned at the last dim), or nullopt if they do not broadcast.
std::optional<ir::Shape> Broadcast(const ir::Shape& a, const ir::Shape& b);

// For every element of `out` (row-major), the index of the element of `in` that broadcasts to
// it. `in` must broadcast to `out`.
std::vector<int64_t> BroadcastIndex(const ir::Shape& in, const ir::Shape& out);

// Row-major strides of `shape`.
std::vector<int64_t> Strides(const ir::Shape& shape);

}  // namespace npu::compiler::qinterp
