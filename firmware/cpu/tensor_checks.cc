// Load-time checks of the data-movement kernels (concat, slice, transpose, channel shuffle, pad,
// resize) and of softmax, layer normalisation, reductions and matmul: the rules of
// compiler/qinterp/check_tensor_ops.cc over a CpuOp (kernel_checks.cc says why).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "firmware/cpu/kernel_checks.h"

namespace npu::fw::cpu {
namespace {

int64_t Rank(const spec::TensorDesc& t) { return t.shape_size(); }

Status CheckConcat(const spec::CpuOp& op) {
  if (op.inputs_size() == 0 || op.outputs_size() != 1) return Bad(op, "needs inputs, one output");
  const Dims y = DimsOf(op.outputs(0));
  NPU_ASSIGN_OR_RETURN(const int64_t axis, Int(op, "axis", 0, 0, int64_t(y.size()) - 1));
  int64_t along = 0;
  for (const spec::TensorDesc& x : op.inputs()) {
    Dims dx = DimsOf(x);
    if (x.dtype() != spec::INT8 || dx.size() != y.size()) {
      return Bad(op, fmt::format("input '{}' must be int8 of the output's rank", x.name()));
    }
    along += dx[axis];
    dx[axis] = y[axis];
    if (dx != y) {
      return Bad(op, fmt::format("input '{}' [{}] does not fit the output [{}] off axis {}",
                                 x.name(), fmt::join(DimsOf(x), ","), fmt::join(y, ","), axis));
    }
  }
  if (along != y[axis]) {
    return Bad(
        op, fmt::format("the inputs hold {} along axis {}, the output {}", along, axis, y[axis]));
  }
  return Status::Ok();
}

Status CheckSlice(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 1));
  const Dims x = DimsOf(op.inputs(0)), y = DimsOf(op.outputs(0));
  if (x.size() != y.size()) return Bad(op, "a slice keeps the rank");
  const int64_t rank = int64_t(x.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> start, Ints(op, "starts", rank, 0, 1 << 30));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> step,
                       Ints(op, "steps", rank, -(1 << 30), 1 << 30));
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t last = start[d] + (y[d] - 1) * step[d];
    if (step[d] == 0 || start[d] >= x[d] || last < 0 || last >= x[d]) {
      return Bad(op, fmt::format("dim {}: {} values from {} by {} leave the input's {}", d, y[d],
                                 start[d], step[d], x[d]));
    }
  }
  return Status::Ok();
}

Status CheckTranspose(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 1));
  const Dims x = DimsOf(op.inputs(0));
  const int64_t rank = int64_t(x.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> perm, Ints(op, "perm", rank, 0, rank - 1));
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  Dims y;
  for (int64_t d = 0; d < rank; ++d) {
    if (sorted[d] != d) return Bad(op, "perm is not a permutation");
    y.push_back(x[perm[d]]);
  }
  return ExpectShape(op, op.outputs(0), y);
}

Status CheckChannelShuffle(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 1));
  NPU_TRY(Expect4D(op, op.inputs(0)));
  const int64_t c = op.inputs(0).shape(3);
  NPU_ASSIGN_OR_RETURN(const int64_t g, Int(op, "group", 1, 1, c));
  if (c % g != 0) return Bad(op, fmt::format("group {} does not divide {} channels", g, c));
  return ExpectShape(op, op.outputs(0), DimsOf(op.inputs(0)));
}

Status CheckPad(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 1));
  Dims y = DimsOf(op.inputs(0));
  const int64_t rank = int64_t(y.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, Ints(op, "pads", 2 * rank, 0, 1 << 20));
  NPU_TRY(Int(op, "value", 0, -128, 127).status());
  for (int64_t d = 0; d < rank; ++d) y[d] += pads[d] + pads[d + rank];
  return ExpectShape(op, op.outputs(0), y);
}

// Taps (i0, i1, weight of i1) of `out` samples of an axis of `in`.
Status CheckTaps(const spec::CpuOp& op, std::string_view name, int64_t in, int64_t out) {
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> taps, Ints(op, name, 3 * out, 0, 1 << 30));
  for (int64_t i = 0; i < out; ++i) {
    if (taps[3 * i] >= in || taps[3 * i + 1] >= in || taps[3 * i + 2] > 1024) {
      return Bad(op, fmt::format("{}[{}] samples outside the input's {} or weighs over 1024", name,
                                 i, in));
    }
  }
  return Status::Ok();
}

Status CheckResize(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 1));
  const spec::TensorDesc &x = op.inputs(0), &y = op.outputs(0);
  NPU_TRY(Expect4D(op, x));
  NPU_TRY(Expect4D(op, y));
  if (y.shape(3) != x.shape(3)) return Bad(op, "resizes the height and width only");
  NPU_TRY(CheckTaps(op, "h_taps", x.shape(1), y.shape(1)));
  return CheckTaps(op, "w_taps", x.shape(2), y.shape(2));
}

Status CheckSoftmax(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 1));
  const spec::TensorDesc& x = op.inputs(0);
  NPU_TRY(Int(op, "axis", 0, 0, Rank(x) - 1).status());
  // Entry 255, exp(0), is in every sum: positive, no row divides by 0.
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> table, Ints(op, "exp_table", 256, 0, 1 << 16));
  if (table[255] == 0) return Bad(op, "exp_table[255], exp(0), is 0");
  return ExpectShape(op, op.outputs(0), DimsOf(x));
}

Status CheckLayerNorm(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 3, {spec::INT8, spec::INT8, spec::INT32}));
  const spec::TensorDesc& x = op.inputs(0);
  if (Rank(x) == 0) return Bad(op, "the input has no channels");
  const int64_t c = x.shape(Rank(x) - 1);
  if (c > kMaxReduction)
    return Bad(op, fmt::format("normalises {} values, more than {}", c, kMaxReduction));
  NPU_TRY(ExpectShape(op, op.inputs(1), {c}));
  NPU_TRY(ExpectShape(op, op.inputs(2), {c}));
  NPU_TRY(Int(op, "eps_term", 0, 0, int64_t{1} << 62).status());
  NPU_TRY(Requant(op, c));
  return ExpectShape(op, op.outputs(0), DimsOf(x));
}

Status CheckReduce(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 1));
  const Dims x = DimsOf(op.inputs(0));
  const int64_t rank = int64_t(x.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, Ints(op, "axes", -1, 0, rank - 1));
  NPU_ASSIGN_OR_RETURN(const int64_t keep, Int(op, "keepdims", 1, 0, 1));
  Dims y;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t listed = std::count(axes.begin(), axes.end(), d);
    if (listed > 1) return Bad(op, fmt::format("axis {} is listed twice", d));
    if (listed == 0) y.push_back(x[d]);
    if (listed == 1 && keep) y.push_back(1);
  }
  if (op.kernel() != "reduce_max") NPU_TRY(Scale(op));
  return ExpectShape(op, op.outputs(0), y);
}

Status CheckMatMul(const spec::CpuOp& op) {
  NPU_TRY(Operands(op, 2));
  const Dims a = DimsOf(op.inputs(0)), b = DimsOf(op.inputs(1));
  if (a.size() < 2 || b.size() < 2) return Bad(op, "both operands need two dims or more");
  const int64_t k = a.back();
  if (b[b.size() - 2] != k) return Bad(op, "the inner dims differ");
  if (k > kMaxReduction) return Bad(op, fmt::format("K = {} is more than {}", k, kMaxReduction));
  std::optional<Dims> y = Broadcast(Dims(a.begin(), a.end() - 2), Dims(b.begin(), b.end() - 2));
  if (!y) return Bad(op, "the batch dims do not broadcast");
  NPU_TRY(Scale(op));
  y->push_back(a[a.size() - 2]);
  y->push_back(b.back());
  return ExpectShape(op, op.outputs(0), *y);
}

}  // namespace

Status CheckDataMovement(const spec::CpuOp& op) {
  const std::string& k = op.kernel();
  if (k == "concat") return CheckConcat(op);
  if (k == "slice") return CheckSlice(op);
  if (k == "transpose") return CheckTranspose(op);
  if (k == "channel_shuffle") return CheckChannelShuffle(op);
  if (k == "pad") return CheckPad(op);
  if (k == "resize") return CheckResize(op);
  return Bad(op, "no operand rules for this kernel");  // a kernel added without its rules
}

Status CheckNorm(const spec::CpuOp& op) {
  const std::string& k = op.kernel();
  if (k == "softmax") return CheckSoftmax(op);
  if (k == "layer_normalization") return CheckLayerNorm(op);
  if (k == "matmul") return CheckMatMul(op);
  return CheckReduce(op);
}

}  // namespace npu::fw::cpu
