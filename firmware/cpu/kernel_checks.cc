// What each CPU kernel assumes of its operands and attributes, checked when the binary loads:
// operand counts and types, shapes that agree with one another and attributes in the ranges the
// kernels' arithmetic was written for. The rules are those of the quantised IR's checker
// (compiler/qinterp/check_ops.cc, check_tensor_ops.cc) over the CpuOp the compiler makes from a
// node, so a compiled program passes them; a corrupt or hostile one is refused before any kernel
// could index outside its buffers or overflow.
#include "firmware/cpu/kernel_checks.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <climits>
#include <optional>

#include "hw/spec/arith.h"
#include "hw/spec/cpu_ops.h"

namespace npu::fw::cpu {

Status Bad(const spec::CpuOp& op, const std::string& what) {
  return DataLoss(fmt::format("CPU op '{}' ({}): {}", op.name(), op.kernel(), what));
}

StatusOr<int64_t> Int(const spec::CpuOp& op, std::string_view name, std::optional<int64_t> fallback,
                      int64_t lo, int64_t hi) {
  const spec::CpuAttr* a = spec::FindCpuAttr(op, name);
  if (a == nullptr && fallback) return *fallback;
  if (a == nullptr || a->ints_size() != 1) {
    return Bad(op, fmt::format("attribute '{}' must be one int", name));
  }
  if (a->ints(0) < lo || a->ints(0) > hi) {
    return Bad(op, fmt::format("attribute {}={} is outside [{}, {}]", name, a->ints(0), lo, hi));
  }
  return a->ints(0);
}

StatusOr<std::vector<int64_t>> Ints(const spec::CpuOp& op, std::string_view name, int64_t size,
                                    int64_t lo, int64_t hi) {
  const spec::CpuAttr* a = spec::FindCpuAttr(op, name);
  if (a == nullptr) return Bad(op, fmt::format("attribute '{}' is missing", name));
  if (size >= 0 && a->ints_size() != size) {
    return Bad(
        op, fmt::format("attribute '{}' has {} values, expected {}", name, a->ints_size(), size));
  }
  for (int64_t v : a->ints()) {
    if (v < lo || v > hi) {
      return Bad(op,
                 fmt::format("a value {} of attribute '{}' is outside [{}, {}]", v, name, lo, hi));
    }
  }
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

Status Clamp(const spec::CpuOp& op) {
  NPU_ASSIGN_OR_RETURN(const int64_t lo, Int(op, "clamp_min", -128, -128, 127));
  NPU_ASSIGN_OR_RETURN(const int64_t hi, Int(op, "clamp_max", 127, -128, 127));
  if (lo > hi) return Bad(op, fmt::format("clamp_min {} > clamp_max {}", lo, hi));
  return Status::Ok();
}

Status Scale(const spec::CpuOp& op) {
  NPU_TRY(Int(op, "multiplier", std::nullopt, 1, INT32_MAX).status());
  NPU_TRY(Int(op, "shift", std::nullopt, spec::kMinShift, spec::kMaxShift).status());
  return Clamp(op);
}

Status Requant(const spec::CpuOp& op, int64_t channels) {
  NPU_TRY(Ints(op, "multiplier", channels, 1, INT32_MAX).status());
  NPU_TRY(Ints(op, "shift", channels, spec::kMinShift, spec::kMaxShift).status());
  return Clamp(op);
}

Status Operands(const spec::CpuOp& op, int inputs, std::initializer_list<spec::DataType> types) {
  if (op.inputs_size() != inputs || op.outputs_size() != 1) {
    return Bad(op, fmt::format("has {} inputs and {} outputs, the kernel takes {} and 1",
                               op.inputs_size(), op.outputs_size(), inputs));
  }
  for (int i = 0; i < inputs; ++i) {
    const spec::DataType want = i < int(types.size()) ? types.begin()[i] : spec::INT8;
    if (op.inputs(i).dtype() != want) {
      return Bad(op,
                 fmt::format("input {} '{}' is {}, the kernel takes {}", i, op.inputs(i).name(),
                             spec::DataType_Name(op.inputs(i).dtype()), spec::DataType_Name(want)));
    }
  }
  return Status::Ok();
}

Status ExpectShape(const spec::CpuOp& op, const spec::TensorDesc& t, const Dims& want) {
  if (DimsOf(t) != want) {
    return Bad(op, fmt::format("'{}' has shape [{}], the kernel needs [{}]", t.name(),
                               fmt::join(DimsOf(t), ","), fmt::join(want, ",")));
  }
  return Status::Ok();
}

Status Expect4D(const spec::CpuOp& op, const spec::TensorDesc& t) {
  if (t.shape_size() != 4 || t.shape(0) != 1) {
    return Bad(op, fmt::format("'{}' must be 4-D of batch 1, is [{}]", t.name(),
                               fmt::join(DimsOf(t), ",")));
  }
  return Status::Ok();
}

std::optional<Dims> Broadcast(const Dims& a, const Dims& b) {
  Dims y(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < y.size(); ++i) {
    const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) return std::nullopt;
    y[y.size() - 1 - i] = std::max(da, db);
  }
  return y;
}

namespace {

constexpr int64_t kMaxWindow = int64_t{1} << 16;  // kernel, stride, pad, dilation, group

// Output size of a window along one dim; < 1 when the window does not fit.
int64_t WindowOut(int64_t in, int64_t pad_sum, int64_t k, int64_t dilation, int64_t stride) {
  return (in + pad_sum - ((k - 1) * dilation + 1)) / stride + 1;
}

struct Window {
  std::vector<int64_t> k, s, p, d{1, 1};
};

StatusOr<Window> ReadWindow(const spec::CpuOp& op, bool dilations) {
  Window w;
  NPU_ASSIGN_OR_RETURN(w.k, Ints(op, "kernel_shape", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(w.s, Ints(op, "strides", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(w.p, Ints(op, "pads", 4, 0, kMaxWindow));
  if (dilations) {
    NPU_ASSIGN_OR_RETURN(w.d, Ints(op, "dilations", 2, 1, kMaxWindow));
  }
  return w;
}

// The output [1, oh, ow, c] of a window over the 4-D input x.
StatusOr<Dims> WindowOutput(const spec::CpuOp& op, const Dims& x, const Window& w, int64_t c) {
  const int64_t oh = WindowOut(x[1], w.p[0] + w.p[2], w.k[0], w.d[0], w.s[0]);
  const int64_t ow = WindowOut(x[2], w.p[1] + w.p[3], w.k[1], w.d[1], w.s[1]);
  if (oh < 1 || ow < 1) return Bad(op, "the window does not fit the input");
  return Dims{1, oh, ow, c};
}

Status CheckConv(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 3, {spec::INT8, spec::INT8, spec::INT32}));
  const spec::TensorDesc &x = op.inputs(0), &w = op.inputs(1), &b = op.inputs(2);
  NPU_TRY(Expect4D(op, x));
  if (w.shape_size() != 4) return Bad(op, "weights must be 4-D [O][kh][kw][I/group]");
  const Dims dw = DimsOf(w);
  const int64_t o = dw[0], c = x.shape(3);
  NPU_TRY(ExpectShape(op, b, {o}));
  NPU_ASSIGN_OR_RETURN(const Window win, ReadWindow(op, /*dilations=*/true));
  NPU_ASSIGN_OR_RETURN(const int64_t group, Int(op, "group", 1, 1, kMaxWindow));
  if (win.k[0] != dw[1] || win.k[1] != dw[2]) {
    return Bad(op, fmt::format("kernel_shape [{}] disagrees with the weights [{}]",
                               fmt::join(win.k, ","), fmt::join(dw, ",")));
  }
  if (c % group != 0 || o % group != 0 || dw[3] != c / group) {
    return Bad(op, fmt::format("group {} does not divide {} input and {} output channels into "
                               "the weights [{}]",
                               group, c, o, fmt::join(dw, ",")));
  }
  if (dw[1] * dw[2] * dw[3] > kMaxReduction) {
    return Bad(op,
               fmt::format("reduces {} terms, more than {}", dw[1] * dw[2] * dw[3], kMaxReduction));
  }
  NPU_TRY(Requant(op, o));
  NPU_ASSIGN_OR_RETURN(const Dims y, WindowOutput(op, DimsOf(x), win, o));
  return ExpectShape(op, op.outputs(0), y);
}

Status CheckGemm(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 3, {spec::INT8, spec::INT8, spec::INT32}));
  const spec::TensorDesc &x = op.inputs(0), &w = op.inputs(1), &b = op.inputs(2);
  if (x.shape_size() < 2 || w.shape_size() != 2) {
    return Bad(op, "needs an input [..., K] and weights [N, K]");
  }
  const int64_t k = x.shape(x.shape_size() - 1), n = w.shape(0);
  NPU_TRY(ExpectShape(op, w, {n, k}));
  NPU_TRY(ExpectShape(op, b, {n}));
  if (k > kMaxReduction) return Bad(op, fmt::format("K = {} is more than {}", k, kMaxReduction));
  NPU_TRY(Requant(op, n));
  Dims y = DimsOf(x);
  y.back() = n;
  return ExpectShape(op, op.outputs(0), y);
}

Status CheckPool(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 1));
  const spec::TensorDesc& x = op.inputs(0);
  NPU_TRY(Expect4D(op, x));
  const Dims dx = DimsOf(x);
  if (op.kernel() != "max_pool") {
    NPU_TRY(Int(op, "multiplier", 1 << 30, 1, INT32_MAX).status());
    NPU_TRY(Int(op, "shift", 30, spec::kMinShift, spec::kMaxShift).status());
  }
  NPU_TRY(Clamp(op));
  if (op.kernel() == "global_average_pool") {
    return ExpectShape(op, op.outputs(0), {1, 1, 1, dx[3]});
  }
  NPU_ASSIGN_OR_RETURN(const Window w, ReadWindow(op, /*dilations=*/false));
  // Every window then holds a tap of the input (no empty max, no division by 0).
  if (w.p[0] >= w.k[0] || w.p[2] >= w.k[0] || w.p[1] >= w.k[1] || w.p[3] >= w.k[1]) {
    return Bad(op, fmt::format("pads [{}] must be smaller than the kernel [{}]",
                               fmt::join(w.p, ","), fmt::join(w.k, ",")));
  }
  NPU_ASSIGN_OR_RETURN(const Dims y, WindowOutput(op, dx, w, dx[3]));
  return ExpectShape(op, op.outputs(0), y);
}

Status CheckBinary(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 2));
  const std::optional<Dims> y = Broadcast(DimsOf(op.inputs(0)), DimsOf(op.inputs(1)));
  if (!y) return Bad(op, "the operands do not broadcast");
  if (op.kernel() == "mul") {
    NPU_TRY(Scale(op));
  } else {
    NPU_TRY(Int(op, "a_multiplier", std::nullopt, -32768, 32767).status());
    NPU_TRY(Int(op, "b_multiplier", std::nullopt, -32768, 32767).status());
    NPU_TRY(Int(op, "shift", 1, spec::kMinShift, spec::kMaxShift).status());
    NPU_TRY(Clamp(op));
  }
  return ExpectShape(op, op.outputs(0), *y);
}

Status CheckLut(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 1));
  NPU_TRY(Ints(op, "table", 256, -128, 127).status());
  return ExpectShape(op, op.outputs(0), DimsOf(op.inputs(0)));
}

}  // namespace

Status CheckKernelOperands(const spec::CpuOp& op) {
  const std::string& k = op.kernel();
  if (k == "fused_conv") return CheckConv(op);
  if (k == "gemm") return CheckGemm(op);
  if (k == "max_pool" || k == "average_pool" || k == "global_average_pool") return CheckPool(op);
  if (k == "add" || k == "fused_add" || k == "mul" || k == "max" || k == "min") {
    return CheckBinary(op);
  }
  if (k == "lut") return CheckLut(op);
  if (k == "softmax" || k == "layer_normalization" || k == "matmul" || k.starts_with("reduce_")) {
    return CheckNorm(op);
  }
  return CheckDataMovement(op);
}

}  // namespace npu::fw::cpu
