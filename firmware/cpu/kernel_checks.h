// The load-time checks of the CPU kernels' operands and attributes (kernel_checks.cc says what
// they guarantee) and the rules they share. Internal to firmware/cpu.
#pragma once

#include <climits>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "firmware/cpu/tensor_index.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/status.h"

namespace npu::fw::cpu {

// The longest int32 sum of products: 65535 terms of int8 by int8 (docs/integer-semantics.md).
inline constexpr int64_t kMaxReduction = 65535;

// Every rule of `op`'s kernel; DataLoss naming the op and the rule it breaks.
Status CheckKernelOperands(const spec::CpuOp& op);

// kernel_checks.cc: MAC, pool, elementwise and table kernels. tensor_checks.cc: data movement;
// softmax, layer norm, reductions, matmul.
Status CheckDataMovement(const spec::CpuOp& op);
Status CheckNorm(const spec::CpuOp& op);

// Shared rules. A failed rule, as the firmware reports a bad binary.
Status Bad(const spec::CpuOp& op, const std::string& what);
// The int attribute `name` in [lo, hi]; `fallback` when absent (nullopt: required).
StatusOr<int64_t> Int(const spec::CpuOp& op, std::string_view name, std::optional<int64_t> fallback,
                      int64_t lo, int64_t hi);
// The ints attribute `name`, required, with `size` values (any number if negative) in [lo, hi].
StatusOr<std::vector<int64_t>> Ints(const spec::CpuOp& op, std::string_view name, int64_t size,
                                    int64_t lo, int64_t hi);
Status Clamp(const spec::CpuOp& op);                      // clamp_min <= clamp_max, both int8
Status Scale(const spec::CpuOp& op);                      // multiplier, shift, clamp
Status Requant(const spec::CpuOp& op, int64_t channels);  // per-channel multiplier and shift
// `inputs` operands (each present and int8 unless `types` says otherwise) and one output.
Status Operands(const spec::CpuOp& op, int inputs,
                std::initializer_list<spec::DataType> types = {});
Status ExpectShape(const spec::CpuOp& op, const spec::TensorDesc& t, const Dims& want);
Status Expect4D(const spec::CpuOp& op, const spec::TensorDesc& t);  // NHWC of batch 1
// numpy broadcasting of a and b, aligned at the last dim; nullopt if they do not broadcast.
std::optional<Dims> Broadcast(const Dims& a, const Dims& b);

}  // namespace npu::fw::cpu
