// What the kernels' operand checks (kernels.h, Check*) are made of: input counts and types,
// attributes read the way Call::Int and Call::Ints read them and bounded, shapes compared. Each
// fails with DataLoss naming the operand or attribute, its value and the rule; CheckCpuOp adds
// the op's name. Internal to firmware/cpu.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "firmware/cpu/tensor_index.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/status.h"

namespace npu::fw::cpu {

// The op has exactly `count` inputs, all present, and one output.
Status ExpectOperands(const spec::CpuOp& op, int count);
// Input `index` has element type `dtype`.
Status ExpectInputType(const spec::CpuOp& op, int index, spec::DataType dtype);

// The attribute as Call::Int reads it (its one int, else `fallback`), required in [lo, hi].
StatusOr<int64_t> IntAttr(const spec::CpuOp& op, std::string_view name, int64_t fallback,
                          int64_t lo, int64_t hi);
// The attribute's ints, required to be `count` of them (any number if count < 0), each in
// [lo, hi].
StatusOr<std::vector<int64_t>> IntsAttr(const spec::CpuOp& op, std::string_view name, int64_t count,
                                        int64_t lo, int64_t hi);
// The per-channel requantisation attributes: `channels` int32 multipliers and shifts in 1..62.
Status ExpectRequantisation(const spec::CpuOp& op, int64_t channels);

// Shape comparisons, failing with both shapes in the message.
Status ExpectDims(std::string_view what, const Dims& got, const Dims& want);
Status ExpectSameElements(std::string_view what, const Dims& got, const Dims& want);
// `in` broadcasts to `out` numpy-style (aligned at the last dim, each dim 1 or equal).
Status ExpectBroadcastable(std::string_view what, const Dims& in, const Dims& out);

// The longest reduction a kernel's int32 sums may run over (docs/integer-semantics.md).
inline constexpr int64_t kMaxReduction = 65535;

}  // namespace npu::fw::cpu
