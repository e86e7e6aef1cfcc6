// The CPU kernels the firmware provides: one per quantised IR op it can run on the control core
// (docs/quantized-ir.md gives each op's semantics, docs/cpu-fallback.md the list), and the work
// each declares to the control core's cost model. The compiler may hand the firmware a CpuOp
// naming one of these; the firmware refuses any other when it loads the binary.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "hw/spec/binary.pb.h"
#include "hw/spec/cpu_model.h"
#include "hw/spec/status.h"

namespace npu::spec {

std::span<const std::string_view> CpuKernelNames();
bool IsCpuKernel(std::string_view kernel);

// The attribute `name` of `op`, or null.
const CpuAttr* FindCpuAttr(const CpuOp& op, std::string_view name);
// Elements of a tensor description (the product of its shape; UINT64_MAX if that overflows, so a
// damaged shape never matches a size).
uint64_t Elements(const TensorDesc& t);

// What running `op` costs: overhead aside (cpu_model.h adds it), the work items of its kernel.
// Fails, naming the op, for an unknown kernel or operands the kernel cannot take.
StatusOr<std::vector<CpuWorkItem>> CpuOpWork(const CpuOp& op);

}  // namespace npu::spec
