// Checker rules of the quantised IR's tensor ops (docs/quantized-ir.md): lookup tables,
// broadcasting binary ops, data movement, softmax, layer normalisation, reductions and matmul.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>

#include "compiler/qinterp/check_ops.h"
#include "compiler/qinterp/qop_attrs.h"
#include "compiler/qinterp/shape_util.h"

namespace npu::compiler::qinterp {
namespace {

using ir::OpKind;

constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();

int64_t Rank(const ir::Tensor* t) { return int64_t(t->shape().size()); }

// An operand of a binary op: an activation, or an int8 constant quantised per tensor.
Status ExpectOperand(const ir::Node& n, const ir::Tensor* t) {
  if (!t->is_constant()) return Status::Ok();
  const ir::QuantParams& q = t->quant();
  if (t->dtype() != ir::DType::kInt8 || q.scale.size() != 1 || q.zero_point.size() != 1 ||
      q.axis != -1 || !(q.scale[0] > 0)) {
    return Bad(n, fmt::format("constant %{} must be i8 quantised per tensor", t->name()));
  }
  return Status::Ok();
}

Status CheckLut(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 1));
  NPU_TRY(ExpectActivation(n, n.input(0), "input"));
  NPU_TRY(ReadInts(n, "table", 256, -128, 127).status());
  return ExpectOutputShape(n, n.input(0)->shape());
}

Status CheckBinary(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 2));
  const ir::Tensor *a = n.input(0), *b = n.input(1);
  NPU_TRY(ExpectOperand(n, a));
  NPU_TRY(ExpectOperand(n, b));
  if (a->is_constant() && b->is_constant()) return Bad(n, "both operands are constants");
  const std::optional<ir::Shape> y = Broadcast(a->shape(), b->shape());
  if (!y) {
    return Bad(n, fmt::format("operands {} and {} do not broadcast", ir::ShapeText(a->shape()),
                              ir::ShapeText(b->shape())));
  }
  if (n.kind() == OpKind::kMul) {
    NPU_TRY(ReadScale(n).status());
  } else {
    NPU_TRY(ReadAddAttrs(n).status());
  }
  if (n.kind() == OpKind::kFusedAdd) NPU_TRY(ExpectActivationName(n));
  return ExpectOutputShape(n, *y);
}

Status CheckConcat(const ir::Node& n) {
  if (n.num_inputs() == 0 || n.num_outputs() != 1) return Bad(n, "needs inputs and one output");
  const ir::Tensor* y = n.output(0);
  NPU_ASSIGN_OR_RETURN(const int64_t axis, ReadInt(n, "axis", 0, Rank(y) - 1));
  ir::Shape expect = n.input(0)->shape();
  expect[axis] = 0;
  for (const ir::Tensor* x : n.inputs()) {
    if (x == nullptr || Rank(x) != Rank(y)) return Bad(n, "inputs must have the output's rank");
    NPU_TRY(ExpectSameQuant(n, x, y));
    for (int64_t d = 0; d < Rank(y); ++d) {
      if (d != axis && x->shape()[d] != y->shape()[d]) {
        return Bad(n, fmt::format("input %{} {} does not fit {} along axis {}", x->name(),
                                  ir::ShapeText(x->shape()), ir::ShapeText(y->shape()), axis));
      }
    }
    expect[axis] += x->shape()[axis];
  }
  return ExpectOutputShape(n, expect);
}

Status CheckSlice(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 1));
  const ir::Tensor *x = n.input(0), *y = n.output(0);
  NPU_TRY(ExpectSameQuant(n, x, y));
  if (Rank(y) != Rank(x)) return Bad(n, "a slice keeps the rank");
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> start,
                       ReadInts(n, "starts", Rank(x), 0, 1 << 30));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> step,
                       ReadInts(n, "steps", Rank(x), -(1 << 30), 1 << 30));
  for (int64_t d = 0; d < Rank(x); ++d) {
    const int64_t last = start[d] + (y->shape()[d] - 1) * step[d];
    if (step[d] == 0 || start[d] >= x->shape()[d] || last < 0 || last >= x->shape()[d]) {
      return Bad(n, fmt::format("dim {}: {} values from {} by {} leave the input's {}", d,
                                y->shape()[d], start[d], step[d], x->shape()[d]));
    }
  }
  return Status::Ok();
}

Status CheckTranspose(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 1));
  const ir::Tensor* x = n.input(0);
  NPU_TRY(ExpectSameQuant(n, x, n.output(0)));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> perm,
                       ReadInts(n, "perm", Rank(x), 0, Rank(x) - 1));
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  ir::Shape y;
  for (int64_t d = 0; d < Rank(x); ++d) {
    if (sorted[d] != d) return Bad(n, "perm is not a permutation");
    y.push_back(x->shape()[perm[d]]);
  }
  return ExpectOutputShape(n, y);
}

Status CheckChannelShuffle(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 1));
  const ir::Tensor* x = n.input(0);
  NPU_TRY(ExpectActivation4D(n, x, "input"));
  NPU_TRY(ExpectSameQuant(n, x, n.output(0)));
  NPU_ASSIGN_OR_RETURN(const int64_t g, ReadInt(n, "group", 1, x->shape()[3]));
  if (x->shape()[3] % g != 0) return Bad(n, "group does not divide the channels");
  return ExpectOutputShape(n, x->shape());
}

Status CheckPad(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 1));
  const ir::Tensor* x = n.input(0);
  NPU_TRY(ExpectSameQuant(n, x, n.output(0)));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> pads,
                       ReadInts(n, "pads", 2 * Rank(x), 0, 1 << 20));
  NPU_TRY(ReadInt(n, "value", -128, 127).status());
  ir::Shape y = x->shape();
  for (int64_t d = 0; d < Rank(x); ++d) y[d] += pads[d] + pads[d + Rank(x)];
  return ExpectOutputShape(n, y);
}

Status CheckTaps(const ir::Node& n, const char* name, int64_t in, int64_t out) {
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> taps, ReadInts(n, name, 3 * out, 0, 1 << 30));
  for (int64_t i = 0; i < out; ++i) {
    if (taps[3 * i] >= in || taps[3 * i + 1] >= in || taps[3 * i + 2] > 1024) {
      return Bad(
          n, fmt::format("{}[{}] samples outside the input's {} or weighs over 1024", name, i, in));
    }
  }
  return Status::Ok();
}

Status CheckResize(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 1));
  const ir::Tensor *x = n.input(0), *y = n.output(0);
  NPU_TRY(ExpectActivation4D(n, x, "input"));
  NPU_TRY(ExpectSameQuant(n, x, y));
  if (Rank(y) != 4 || y->shape()[0] != 1 || y->shape()[3] != x->shape()[3]) {
    return Bad(n, "resizes the height and width of an NHWC tensor only");
  }
  NPU_TRY(CheckTaps(n, "h_taps", x->shape()[1], y->shape()[1]));
  return CheckTaps(n, "w_taps", x->shape()[2], y->shape()[2]);
}

Status CheckSoftmax(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 1));
  const ir::Tensor *x = n.input(0), *y = n.output(0);
  NPU_TRY(ReadInt(n, "axis", 0, Rank(x) - 1).status());
  NPU_TRY(ReadInts(n, "exp_table", 256, 0, 1 << 16).status());
  if (y->quant().scale[0] != 1.0f / 256 || y->quant().zero_point[0] != -128) {
    return Bad(n, "the output's quantisation must be scale 1/256, zero point -128");
  }
  return ExpectOutputShape(n, x->shape());
}

Status CheckLayerNorm(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 3));
  const ir::Tensor* x = n.input(0);
  NPU_TRY(ExpectActivation(n, x, "input"));
  const int64_t c = x->shape().back();
  if (c > kMaxReduction)
    return Bad(n, fmt::format("normalises {} values, more than {}", c, kMaxReduction));
  NPU_TRY(ReadInt(n, "axis", Rank(x) - 1, Rank(x) - 1).status());
  NPU_TRY(ExpectConstant(n, n.input(1), ir::DType::kInt8, {c}, "weights"));
  NPU_TRY(ExpectWeightQuant(n, n.input(1), c));
  NPU_TRY(ExpectConstant(n, n.input(2), ir::DType::kInt32, {c}, "bias"));
  NPU_TRY(ReadInt(n, "eps_term", 0, int64_t{1} << 62).status());
  NPU_TRY(ReadRequant(n, c).status());
  return ExpectOutputShape(n, x->shape());
}

Status CheckReduce(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 1));
  const ir::Tensor* x = n.input(0);
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, ReadInts(n, "axes", -1, 0, Rank(x) - 1));
  NPU_ASSIGN_OR_RETURN(const int64_t keep, ReadInt(n, "keepdims", 0, 1));
  ir::Shape y;
  for (int64_t d = 0; d < Rank(x); ++d) {
    const bool reduced = std::count(axes.begin(), axes.end(), d) > 0;
    if (std::count(axes.begin(), axes.end(), d) > 1) return Bad(n, "an axis is listed twice");
    if (!reduced) y.push_back(x->shape()[d]);
    if (reduced && keep) y.push_back(1);
  }
  if (n.kind() == OpKind::kReduceMax) {
    NPU_TRY(ExpectSameQuant(n, x, n.output(0)));
  } else {
    NPU_TRY(ReadScale(n).status());
  }
  return ExpectOutputShape(n, y);
}

Status CheckMatMul(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 2));
  const ir::Tensor *a = n.input(0), *b = n.input(1);
  NPU_TRY(ExpectActivation(n, a, "a"));
  NPU_TRY(ExpectActivation(n, b, "b"));
  if (Rank(a) < 2 || Rank(b) < 2) return Bad(n, "both operands need two dims or more");
  const ir::Shape &sa = a->shape(), &sb = b->shape();
  const int64_t k = sa.back();
  if (sb[sb.size() - 2] != k) return Bad(n, "the inner dims differ");
  if (k > kMaxReduction) return Bad(n, fmt::format("K = {} is more than {}", k, kMaxReduction));
  const std::optional<ir::Shape> batch =
      Broadcast(ir::Shape(sa.begin(), sa.end() - 2), ir::Shape(sb.begin(), sb.end() - 2));
  if (!batch) return Bad(n, "the batch dims do not broadcast");
  NPU_TRY(ReadScale(n).status());
  ir::Shape y = *batch;
  y.push_back(sa[sa.size() - 2]);
  y.push_back(sb.back());
  return ExpectOutputShape(n, y);
}

}  // namespace

Status CheckTensorOp(const ir::Node& n) {
  switch (n.kind()) {
    case OpKind::kLut:
      return CheckLut(n);
    case OpKind::kAdd:
    case OpKind::kFusedAdd:
    case OpKind::kMul:
    case OpKind::kMax:
    case OpKind::kMin:
      return CheckBinary(n);
    case OpKind::kConcat:
      return CheckConcat(n);
    case OpKind::kSlice:
      return CheckSlice(n);
    case OpKind::kTranspose:
      return CheckTranspose(n);
    case OpKind::kChannelShuffle:
      return CheckChannelShuffle(n);
    case OpKind::kPad:
      return CheckPad(n);
    case OpKind::kResize:
      return CheckResize(n);
    case OpKind::kSoftmax:
      return CheckSoftmax(n);
    case OpKind::kLayerNormalization:
      return CheckLayerNorm(n);
    case OpKind::kReduceMean:
    case OpKind::kReduceSum:
    case OpKind::kReduceMax:
      return CheckReduce(n);
    case OpKind::kMatMul:
      return CheckMatMul(n);
    default:
      return Unimplemented("not a tensor op");
  }
}

}  // namespace npu::compiler::qinterp
