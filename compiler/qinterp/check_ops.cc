// Per-op rules of the quantised-IR checker (docs/quantized-ir.md, "Ops").
#include "compiler/qinterp/check_ops.h"

#include <fmt/format.h>

#include <cmath>

#include "compiler/qinterp/qop_attrs.h"

namespace npu::compiler::qinterp {

using ir::DType;
using ir::OpKind;

Status Bad(const ir::Node& n, const std::string& what) {
  return InvalidArgument(fmt::format("node '{}' ({}): {}", n.name(), ir::OpName(n.kind()), what));
}

Status ExpectInputs(const ir::Node& n, size_t count) {
  if (n.num_inputs() != count || n.num_outputs() != 1) {
    return Bad(n, fmt::format("has {} inputs and {} outputs, expected {} and 1", n.num_inputs(),
                              n.num_outputs(), count));
  }
  for (size_t i = 0; i < count; ++i) {
    if (n.input(i) == nullptr) return Bad(n, fmt::format("input {} is missing", i));
  }
  return Status::Ok();
}

// A run-time value (its params were checked with the graph's tensors).
Status ExpectActivation(const ir::Node& n, const ir::Tensor* t, const char* role) {
  if (t->is_constant())
    return Bad(n, fmt::format("{} %{} must not be a constant", role, t->name()));
  return Status::Ok();
}

Status ExpectActivation4D(const ir::Node& n, const ir::Tensor* t, const char* role) {
  NPU_TRY(ExpectActivation(n, t, role));
  if (t->shape().size() != 4 || t->layout() != ir::Layout::kNHWC || t->shape()[0] != 1) {
    return Bad(n, fmt::format("{} %{} must be a 4-D NHWC activation of batch 1, is {} {}", role,
                              t->name(), ir::ShapeText(t->shape()), ir::LayoutName(t->layout())));
  }
  return Status::Ok();
}

Status ExpectConstant(const ir::Node& n, const ir::Tensor* t, DType dtype, const ir::Shape& shape,
                      const char* role) {
  if (!t->is_constant() || t->dtype() != dtype || t->shape() != shape) {
    return Bad(n,
               fmt::format("{} %{} must be a constant {}{}, is {}{}{}", role, t->name(),
                           ir::DTypeName(dtype), ir::ShapeText(shape), ir::DTypeName(t->dtype()),
                           ir::ShapeText(t->shape()), t->is_constant() ? "" : " (not constant)"));
  }
  return Status::Ok();
}

// Symmetric per-output-channel weights: axis 0, `channels` positive scales, zero points 0.
Status ExpectWeightQuant(const ir::Node& n, const ir::Tensor* w, int64_t channels) {
  const ir::QuantParams& q = w->quant();
  if (q.axis != 0 || static_cast<int64_t>(q.scale.size()) != channels ||
      q.zero_point.size() != q.scale.size()) {
    return Bad(n, fmt::format("weights %{} need {} scales and zero points along axis 0, have {} "
                              "and {} (axis {})",
                              w->name(), channels, q.scale.size(), q.zero_point.size(), q.axis));
  }
  for (size_t o = 0; o < q.scale.size(); ++o) {
    if (!std::isfinite(q.scale[o]) || !(q.scale[o] > 0.0f) || q.zero_point[o] != 0) {
      return Bad(n, fmt::format("weights %{} channel {}: scale {} zero point {} (need a positive "
                                "scale, zero point 0)",
                                w->name(), o, q.scale[o], q.zero_point[o]));
    }
  }
  return Status::Ok();
}

// weight_bits: absent or 8, or 4 with every weight in [-8, 7] (W4A8: the lowering packs them).
Status ExpectWeightBits(const ir::Node& n, const ir::Tensor* w) {
  const int64_t bits = n.attrs().GetInt("weight_bits", 8);
  if (bits == 8) return Status::Ok();
  if (bits != 4) return Bad(n, fmt::format("weight_bits = {}: must be 8 or 4", bits));
  const auto values = w->data<int8_t>();
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < -8 || values[i] > 7) {
      return Bad(n, fmt::format("weight_bits = 4 but weight {} of %{} is {}, outside [-8, 7]", i,
                                w->name(), int{values[i]}));
    }
  }
  return Status::Ok();
}

Status ExpectOutputShape(const ir::Node& n, const ir::Shape& shape) {
  if (n.output(0)->shape() != shape) {
    return Bad(n, fmt::format("output %{} has shape {}, the op gives {}", n.output(0)->name(),
                              ir::ShapeText(n.output(0)->shape()), ir::ShapeText(shape)));
  }
  return Status::Ok();
}

Status ExpectSameQuant(const ir::Node& n, const ir::Tensor* in, const ir::Tensor* out) {
  const ir::QuantParams &a = in->quant(), &b = out->quant();
  if (a.scale != b.scale || a.zero_point != b.zero_point) {
    return Bad(n, fmt::format("output %{} must keep the quantisation of %{} (scale {} zp {}), has "
                              "scale {} zp {}",
                              out->name(), in->name(), a.scale[0], a.zero_point[0], b.scale[0],
                              b.zero_point[0]));
  }
  return Status::Ok();
}

Status ExpectActivationName(const ir::Node& n) {
  const std::string act = n.attrs().GetString("activation", "");
  if (act != "none" && act != "relu" && act != "relu6") {
    return Bad(n, fmt::format("attribute activation='{}' must be none, relu or relu6", act));
  }
  return Status::Ok();
}

namespace {

Status CheckConv(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 3));
  const ir::Tensor *x = n.input(0), *w = n.input(1), *b = n.input(2);
  NPU_TRY(ExpectActivation4D(n, x, "input"));
  if (w->shape().size() != 4) return Bad(n, "weights must be 4-D [O][kh][kw][I/group] (OHWI)");
  const int64_t o = w->shape()[0], kh = w->shape()[1], kw = w->shape()[2], ig = w->shape()[3];
  NPU_TRY(ExpectConstant(n, w, DType::kInt8, w->shape(), "weights"));
  NPU_TRY(ExpectWeightQuant(n, w, o));
  NPU_TRY(ExpectWeightBits(n, w));
  NPU_TRY(ExpectConstant(n, b, DType::kInt32, {o}, "bias"));
  NPU_ASSIGN_OR_RETURN(const QConvAttrs a, ReadConvAttrs(n, o));
  NPU_TRY(ExpectActivationName(n));
  const int64_t c = x->shape()[3];
  if (a.window.kh != kh || a.window.kw != kw) {
    return Bad(n, fmt::format("kernel_shape [{},{}] disagrees with weights {}", a.window.kh,
                              a.window.kw, ir::ShapeText(w->shape())));
  }
  if (c % a.group != 0 || o % a.group != 0 || ig != c / a.group) {
    return Bad(n, fmt::format("group {} does not divide {} input and {} output channels into "
                              "weights {}",
                              a.group, c, o, ir::ShapeText(w->shape())));
  }
  if (kh * kw * ig > kMaxReduction) {
    return Bad(n, fmt::format("reduces {} terms, more than {}", kh * kw * ig, kMaxReduction));
  }
  const int64_t oh = a.window.OutH(x->shape()[1]), ow = a.window.OutW(x->shape()[2]);
  if (oh < 1 || ow < 1) return Bad(n, "the window does not fit the input");
  return ExpectOutputShape(n, {1, oh, ow, o});
}

Status CheckGemm(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 3));
  const ir::Tensor *x = n.input(0), *w = n.input(1), *b = n.input(2);
  NPU_TRY(ExpectActivation(n, x, "input"));
  if (x->shape().size() < 2) return Bad(n, "input must be [..., K]");
  if (w->shape().size() != 2) return Bad(n, "weights must be [N, K]");
  const int64_t k = x->shape().back(), out = w->shape()[0];
  NPU_TRY(ExpectConstant(n, w, DType::kInt8, {out, k}, "weights"));
  NPU_TRY(ExpectWeightQuant(n, w, out));
  NPU_TRY(ExpectWeightBits(n, w));
  NPU_TRY(ExpectConstant(n, b, DType::kInt32, {out}, "bias"));
  if (n.attrs().GetInt("transB", 0) != 1 || n.attrs().GetInt("transA", 0) != 0) {
    return Bad(n, "needs transB=1 and transA=0 (weights [N, K])");
  }
  if (n.attrs().GetFloat("alpha", 1.0f) != 1.0f || n.attrs().GetFloat("beta", 1.0f) != 1.0f) {
    return Bad(n, "alpha and beta must be 1 (the quantiser folds them)");
  }
  NPU_TRY(ReadRequant(n, out).status());
  if (k > kMaxReduction) return Bad(n, fmt::format("K = {} is more than {}", k, kMaxReduction));
  ir::Shape y = x->shape();
  y.back() = out;
  return ExpectOutputShape(n, y);
}

Status CheckPool(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 1));
  const ir::Tensor* x = n.input(0);
  NPU_TRY(ExpectActivation4D(n, x, "input"));
  NPU_ASSIGN_OR_RETURN(const QPoolAttrs a, ReadPoolAttrs(n));
  const int64_t c = x->shape()[3];
  if (n.kind() == OpKind::kGlobalAveragePool) return ExpectOutputShape(n, {1, 1, 1, c});
  // Every window then holds at least one tap of the input (no empty max, no division by 0).
  const QWindow& w = a.window;
  if (w.pad_t >= w.kh || w.pad_b >= w.kh || w.pad_l >= w.kw || w.pad_r >= w.kw) {
    return Bad(n, fmt::format("pads [{},{},{},{}] must be smaller than the kernel [{},{}]", w.pad_t,
                              w.pad_l, w.pad_b, w.pad_r, w.kh, w.kw));
  }
  const int64_t oh = a.window.OutH(x->shape()[1]), ow = a.window.OutW(x->shape()[2]);
  if (oh < 1 || ow < 1) return Bad(n, "the window does not fit the input");
  NPU_TRY(ExpectOutputShape(n, {1, oh, ow, c}));
  if (n.kind() == OpKind::kMaxPool) return ExpectSameQuant(n, x, n.output(0));
  return Status::Ok();
}

// A pool sum's sums: i32 [1,1,1,C] with C the input's channels, written by a kPoolSum.
Status ExpectSums(const ir::Node& n, const ir::Tensor* t, int64_t c, const char* role) {
  if (t->dtype() != DType::kInt32 || t->shape() != ir::Shape{1, 1, 1, c} ||
      t->producer() == nullptr || t->producer()->kind() != OpKind::kPoolSum) {
    return Bad(n,
               fmt::format("{} %{} must be the i32 [1,1,1,{}] sums of a pool_sum, is {} {}", role,
                           t->name(), c, ir::DTypeName(t->dtype()), ir::ShapeText(t->shape())));
  }
  return Status::Ok();
}

Status CheckPoolSum(const ir::Node& n) {
  if (n.inputs().size() != 1 && n.inputs().size() != 2) {
    return Bad(n, fmt::format("has {} inputs, expects an image and optionally its sums so far",
                              n.inputs().size()));
  }
  const ir::Tensor* x = n.input(0);
  NPU_TRY(ExpectActivation4D(n, x, "input"));
  const int64_t c = x->shape()[3];
  if (n.inputs().size() == 2) NPU_TRY(ExpectSums(n, n.input(1), c, "sums operand"));
  const ir::Tensor* y = n.output(0);
  if (y->dtype() != DType::kInt32 || y->shape() != ir::Shape{1, 1, 1, c}) {
    return Bad(n, fmt::format("output %{} must be i32 [1,1,1,{}]", y->name(), c));
  }
  return Status::Ok();
}

Status CheckPoolMean(const ir::Node& n) {
  NPU_TRY(ExpectInputs(n, 1));
  const int64_t c = n.input(0)->shape().empty() ? 0 : n.input(0)->shape().back();
  NPU_TRY(ExpectSums(n, n.input(0), c, "input"));
  NPU_TRY(ReadPoolAttrs(n).status());
  return ExpectOutputShape(n, {1, 1, 1, c});
}

Status CheckView(const ir::Node& n) {
  const size_t count = n.kind() == OpKind::kReshape ? 2 : 1;
  NPU_TRY(ExpectInputs(n, count));
  const ir::Tensor *x = n.input(0), *y = n.output(0);
  NPU_TRY(ExpectActivation(n, x, "input"));
  if (count == 2 && (!n.input(1)->is_constant() || n.input(1)->dtype() != DType::kInt64)) {
    return Bad(n, "the shape operand must be an i64 constant");
  }
  if (ir::NumElements(x->shape()) != ir::NumElements(y->shape())) {
    return Bad(n, fmt::format("views {} as {}: element counts differ", ir::ShapeText(x->shape()),
                              ir::ShapeText(y->shape())));
  }
  return ExpectSameQuant(n, x, y);
}

}  // namespace

Status CheckQuantizedNode(const ir::Node& node) {
  switch (node.kind()) {
    case OpKind::kFusedConv:
      return CheckConv(node);
    case OpKind::kGemm:
      return CheckGemm(node);
    case OpKind::kMaxPool:
    case OpKind::kAveragePool:
    case OpKind::kGlobalAveragePool:
      return CheckPool(node);
    case OpKind::kPoolSum:
      return CheckPoolSum(node);
    case OpKind::kPoolMean:
      return CheckPoolMean(node);
    case OpKind::kFlatten:
    case OpKind::kReshape:
    case OpKind::kIdentity:
      return CheckView(node);
    default:
      if (const Status s = CheckTensorOp(node); s.kind() != ErrorKind::kUnimplemented) return s;
      return Unimplemented(fmt::format("node '{}': op {} is not part of the quantised IR",
                                       node.name(), ir::OpName(node.kind())));
  }
}

}  // namespace npu::compiler::qinterp
