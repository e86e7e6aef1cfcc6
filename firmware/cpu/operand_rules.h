// What the kernels' load-time checks (kernels.h, Check*) are made of: operand counts and types,
// attributes read the way Call::Int and Call::Ints read them and bounded, shapes compared, 2-D
// windows. Each fails with DataLoss naming the operand or attribute, its value and the broken
// rule; CheckCpuOp adds the op's name and kernel. Internal to firmware/cpu.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "firmware/cpu/tensor_index.h"
#include "hw/spec/arith.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/status.h"

namespace npu::fw::cpu {

// The longest reduction a kernel's int32 sums may run over, and the largest kernel size, stride,
// pad, dilation or group: the contract's bounds (hw/spec/arith.h), the compiler's too, so that no
// compiled op is refused.
inline constexpr int64_t kMaxReduction = spec::kMaxReduction;
inline constexpr int64_t kMaxWindow = spec::kMaxWindowValue;

// `inputs` inputs, each present and int8 unless `types` (in input order) says otherwise, and one
// output.
Status ExpectOperands(const spec::CpuOp& op, int inputs,
                      std::initializer_list<spec::DataType> types = {});

// For IntAttr: the attribute has no default, an absent one is refused.
inline constexpr std::optional<int64_t> kRequired = std::nullopt;
// The int attribute `name` as Call::Int reads it: its one int, `fallback` when absent. An
// attribute of another size is refused, and so is a value (the fallback too) outside [lo, hi].
StatusOr<int64_t> IntAttr(const spec::CpuOp& op, std::string_view name,
                          std::optional<int64_t> fallback, int64_t lo, int64_t hi);
// The ints attribute `name`, required, with `count` values (any number if negative) in [lo, hi].
StatusOr<std::vector<int64_t>> IntsAttr(const spec::CpuOp& op, std::string_view name, int64_t count,
                                        int64_t lo, int64_t hi);

// clamp_min <= clamp_max, both int8 (absent: the int8 range).
Status ExpectClamp(const spec::CpuOp& op);
// One requantisation: multiplier in 1..INT32_MAX and shift in 1..62, both required; the clamp.
Status ExpectScale(const spec::CpuOp& op);
// Per channel: `channels` multipliers and shifts as ExpectScale's; the clamp.
Status ExpectRequantisation(const spec::CpuOp& op, int64_t channels);

// The tensor has shape `want`.
Status ExpectShape(const spec::TensorDesc& t, const Dims& want);
// The tensor is NHWC of batch 1.
Status Expect4D(const spec::TensorDesc& t);

// A 2-D window over an NHWC input (pads: top, left, bottom, right).
struct Window {
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t top = 0, left = 0, bottom = 0, right = 0;
};
// kernel_shape, strides, pads and (if `dilations`) dilations, each required and at most
// kMaxWindow (kernel sizes, strides and dilations at least 1).
StatusOr<Window> ReadWindow(const spec::CpuOp& op, bool dilations);
// The output [1, oh, ow, channels] of `w` over the 4-D input `x`; refused if the window does not
// fit the padded input.
StatusOr<Dims> WindowOutput(const Window& w, const Dims& x, int64_t channels);

}  // namespace npu::fw::cpu
