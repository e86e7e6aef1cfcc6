// Per-op rules of the quantised-IR checker. Internal to compiler/qinterp.
#pragma once

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::qinterp {

// The longest reduction (kernel_h * kernel_w * in_channels, or Gemm's K) whose int32 sum cannot
// overflow: 65535 * 255 * 128 < 2^31 (docs/integer-semantics.md).
inline constexpr int64_t kMaxReduction = 65535;

// Checks one node of a quantised graph whose tensors have already passed the tensor checks.
Status CheckQuantizedNode(const ir::Node& node);

}  // namespace npu::compiler::qinterp
