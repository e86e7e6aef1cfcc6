// The CPU kernel list and the work each kernel declares.
#include "hw/spec/cpu_ops.h"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>

namespace npu::spec {
namespace {

// Kernel names are the quantised IR's op names (compiler/ir/op_kind.cc).
constexpr std::string_view kKernels[] = {
    "fused_conv",   "gemm",
    "matmul",       "max_pool",
    "average_pool", "global_average_pool",
    "add",          "fused_add",
    "mul",          "max",
    "min",          "lut",
    "concat",       "slice",
    "transpose",    "channel_shuffle",
    "pad",          "resize",
    "softmax",      "layer_normalization",
    "reduce_mean",  "reduce_sum",
    "reduce_max",
};

bool IsOneOf(std::string_view k, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), k) != names.end();
}

using Work = std::vector<CpuWorkItem>;

uint64_t OutputElements(const CpuOp& op) {
  uint64_t n = 0;
  for (const TensorDesc& t : op.outputs()) n += Elements(t);
  return n;
}

uint64_t KernelTaps(const CpuOp& op) {
  const CpuAttr* k = FindCpuAttr(op, "kernel_shape");
  uint64_t taps = 1;
  if (k != nullptr) {
    for (int64_t d : k->ints()) taps *= static_cast<uint64_t>(std::max<int64_t>(d, 1));
  }
  return taps;
}

// The channels each output reads: [O][kh][kw][I/group] weights carry it in their last dim.
uint64_t ReductionPerOutput(const CpuOp& op) {
  if (op.inputs_size() < 2 || op.inputs(1).shape_size() == 0) return 0;
  const TensorDesc& w = op.inputs(1);
  return Elements(w) / std::max<uint64_t>(w.shape(0), 1);
}

}  // namespace

std::span<const std::string_view> CpuKernelNames() { return kKernels; }

bool IsCpuKernel(std::string_view kernel) {
  return std::find(std::begin(kKernels), std::end(kKernels), kernel) != std::end(kKernels);
}

const CpuAttr* FindCpuAttr(const CpuOp& op, std::string_view name) {
  for (const CpuAttr& a : op.attrs()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

uint64_t Elements(const TensorDesc& t) {
  uint64_t n = 1;
  for (uint32_t d : t.shape()) {
    if (__builtin_mul_overflow(n, uint64_t{d}, &n)) return UINT64_MAX;
  }
  return n;
}

StatusOr<std::vector<CpuWorkItem>> CpuOpWork(const CpuOp& op) {
  const std::string_view k = op.kernel();
  if (!IsCpuKernel(k)) {
    return InvalidArgument(fmt::format("CPU op '{}': no CPU kernel '{}'", op.name(), k));
  }
  if (op.inputs_size() == 0 || op.outputs_size() == 0) {
    return InvalidArgument(fmt::format("CPU op '{}' ({}): no operands", op.name(), k));
  }
  const uint64_t out = OutputElements(op);
  if (k == "fused_conv" || k == "gemm") {
    return Work{{CpuWork::kMac, out * ReductionPerOutput(op)}, {CpuWork::kRequantize, out}};
  }
  if (k == "max_pool") return Work{{CpuWork::kReduce, out * KernelTaps(op)}};
  if (k == "average_pool") {
    return Work{{CpuWork::kReduce, out * KernelTaps(op)}, {CpuWork::kRequantize, out}};
  }
  if (k == "global_average_pool") {
    return Work{{CpuWork::kReduce, Elements(op.inputs(0))}, {CpuWork::kRequantize, out}};
  }
  if (k == "matmul") {
    const TensorDesc& a = op.inputs(0);
    const uint64_t depth = a.shape_size() > 0 ? a.shape(a.shape_size() - 1) : 0;
    return Work{{CpuWork::kMac, out * depth}, {CpuWork::kRequantize, out}};
  }
  if (k == "lut") return Work{{CpuWork::kLut, out}};
  if (IsOneOf(k, {"concat", "slice", "transpose", "channel_shuffle", "pad"})) {
    return Work{{CpuWork::kCopy, out}};
  }
  if (k == "resize") return Work{{CpuWork::kResize, out}};
  if (k == "softmax") return Work{{CpuWork::kSoftmax, out}};
  if (k == "layer_normalization") return Work{{CpuWork::kLayerNorm, out}};
  if (IsOneOf(k, {"reduce_mean", "reduce_sum", "reduce_max"})) {
    return Work{{CpuWork::kReduce, Elements(op.inputs(0))}, {CpuWork::kRequantize, out}};
  }
  return Work{{CpuWork::kElementwise, out}};  // add, fused_add, mul, max, min
}

}  // namespace npu::spec
