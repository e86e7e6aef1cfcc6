// Resize's sampling along one axis (docs/ir.md, `resize`): for each output position, the two
// input neighbours and the weight of the second. The float kernel and the quantiser (which turns
// the weights into integers for the int8 resize) share it, so both sample the same positions.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/attributes.h"
#include "hw/spec/status.h"

namespace npu::compiler::interp {

struct ResizeTap {
  int64_t i0 = 0, i1 = 0;
  float w1 = 0;  // weight of i1; i0 gets 1 - w1 (0 for nearest)
};

// `a`: the node's mode, coordinate_transformation_mode, nearest_mode; `scale` is out / in when
// sizes are given, else the scales value.
StatusOr<std::vector<ResizeTap>> ResizeAxisTaps(const ir::Attributes& a, int64_t in, int64_t out,
                                                float scale);

}  // namespace npu::compiler::interp
