// Elementwise ops: Relu, Clip (bounds from attributes min/max, or from inputs 1 and 2 as in ONNX
// opset 11+), Identity; Add, Sub, Mul, Div, FusedAdd with numpy (multidirectional) broadcasting
// over the shapes as stored, for f32, i32 and i64 (integer Div truncates); Pow (f32); and the
// variadic Max and Min (any number of inputs, broadcast together).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

// Element strides of `s` read as shape `out` (0 along broadcast dimensions).
std::vector<int64_t> BroadcastStrides(const ir::Shape& s, const ir::Shape& out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t stride = 1;
  for (size_t i = 0; i < s.size(); ++i) {
    const size_t d = s.size() - 1 - i, od = out.size() - 1 - i;
    strides[od] = s[d] == 1 ? 0 : stride;
    stride *= s[d];
  }
  return strides;
}

template <class T, class Op>
void Broadcast(const TensorRef& a, const TensorRef& b, HostTensor& out, Op op) {
  const T* x = a.values<T>().data();
  const T* y = b.values<T>().data();
  T* z = out.values<T>().data();
  const int64_t n = out.num_elements();
  // 1. Fast paths: equal shapes, or one side a single value.
  if (a.shape == b.shape) {
    for (int64_t i = 0; i < n; ++i) z[i] = op(x[i], y[i]);
    return;
  }
  if (b.num_elements() == 1 && a.shape == out.shape) {
    for (int64_t i = 0; i < n; ++i) z[i] = op(x[i], y[0]);
    return;
  }
  // 2. General case: an odometer over the outer dimensions, a strided loop over the last.
  const ir::Shape& shape = out.shape;
  const std::vector<int64_t> sa = BroadcastStrides(a.shape, shape);
  const std::vector<int64_t> sb = BroadcastStrides(b.shape, shape);
  const size_t rank = shape.size();
  const int64_t last = rank == 0 ? 1 : shape[rank - 1];
  const int64_t la = rank == 0 ? 0 : sa[rank - 1], lb = rank == 0 ? 0 : sb[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t ia = 0, ib = 0;
  for (int64_t o = 0; o < n; o += last) {
    for (int64_t k = 0; k < last; ++k) z[o + k] = op(x[ia + k * la], y[ib + k * lb]);
    for (int64_t d = static_cast<int64_t>(rank) - 2; d >= 0; --d) {  // advance the odometer
      ia += sa[d], ib += sb[d];
      if (++index[d] < shape[d]) break;
      ia -= sa[d] * shape[d], ib -= sb[d] * shape[d];
      index[d] = 0;
    }
  }
}

template <class T>
Status BinaryTyped(ir::OpKind kind, const TensorRef& a, const TensorRef& b, HostTensor& out) {
  switch (kind) {
    case ir::OpKind::kAdd:
    case ir::OpKind::kFusedAdd:
      Broadcast<T>(a, b, out, [](T p, T q) { return p + q; });
      return Status::Ok();
    case ir::OpKind::kSub:
      Broadcast<T>(a, b, out, [](T p, T q) { return p - q; });
      return Status::Ok();
    case ir::OpKind::kMul:
      Broadcast<T>(a, b, out, [](T p, T q) { return p * q; });
      return Status::Ok();
    case ir::OpKind::kDiv:
      if constexpr (!std::is_floating_point_v<T>) {
        for (T v : b.values<T>()) {
          if (v == 0) return InvalidArgument("integer division by zero");
        }
      }
      Broadcast<T>(a, b, out, [](T p, T q) { return p / q; });
      return Status::Ok();
    case ir::OpKind::kPow:
      if constexpr (!std::is_floating_point_v<T>) return Unimplemented("integer pow");
      Broadcast<T>(a, b, out, [](T p, T q) { return q == T(2) ? p * p : T(std::pow(p, q)); });
      return Status::Ok();
    case ir::OpKind::kMax:
      Broadcast<T>(a, b, out, [](T p, T q) { return std::max(p, q); });
      return Status::Ok();
    case ir::OpKind::kMin:
      Broadcast<T>(a, b, out, [](T p, T q) { return std::min(p, q); });
      return Status::Ok();
    default:
      return Internal("not a binary op");
  }
}

}  // namespace

StatusOr<Types> UnaryRule(const ir::Node& node, Inputs in) {
  const size_t max_inputs = node.kind() == ir::OpKind::kClip ? 3 : 1;
  NPU_TRY(ExpectInputCount(in, 1, max_inputs));
  if (node.kind() != ir::OpKind::kIdentity) NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  return Types{{in[0].dtype, in[0].shape, in[0].layout}};
}

Status ReluKernel(const ir::Node& node, Inputs in, Outputs out) {
  const std::span<const float> x = in[0].values<float>();
  const std::span<float> y = out[0].values<float>();
  for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] < 0 ? 0.0f : x[i];
  return Status::Ok();
}

Status ClipKernel(const ir::Node& node, Inputs in, Outputs out) {
  float lo = node.attrs().GetFloat("min", -std::numeric_limits<float>::infinity());
  float hi = node.attrs().GetFloat("max", std::numeric_limits<float>::infinity());
  for (size_t i = 1; i < in.size(); ++i) {
    if (!in[i].present()) continue;
    if (in[i].dtype != ir::DType::kFloat32 || in[i].num_elements() != 1) {
      return InvalidArgument(fmt::format("input {} (clip bound) must be one f32 value", i));
    }
    (i == 1 ? lo : hi) = in[i].values<float>()[0];
  }
  const std::span<const float> x = in[0].values<float>();
  const std::span<float> y = out[0].values<float>();
  for (size_t i = 0; i < x.size(); ++i) y[i] = std::min(std::max(x[i], lo), hi);
  return Status::Ok();
}

StatusOr<Types> BinaryRule(const ir::Node& node, Inputs in) {
  const bool variadic = node.kind() == ir::OpKind::kMax || node.kind() == ir::OpKind::kMin;
  if (variadic && in.empty()) return InvalidArgument("needs at least one input");
  NPU_TRY(variadic ? ExpectInputCount(in, in.size(), in.size()) : ExpectInputCount(in, 2, 2));
  const ir::DType dtype = in[0].dtype;
  if (dtype != ir::DType::kFloat32 && dtype != ir::DType::kInt64 && dtype != ir::DType::kInt32) {
    return InvalidArgument(
        fmt::format("element type {} is not f32, i32 or i64", ir::DTypeName(dtype)));
  }
  for (size_t i = 1; i < in.size(); ++i) NPU_TRY(ExpectDType(in, i, dtype));
  const bool float_only = node.kind() == ir::OpKind::kFusedAdd || node.kind() == ir::OpKind::kPow;
  if (float_only && dtype != ir::DType::kFloat32) {
    return InvalidArgument(fmt::format("{} is f32 only", ir::OpName(node.kind())));
  }
  if (node.kind() == ir::OpKind::kFusedAdd) NPU_TRY(ActivationOf(node).status());
  ir::Shape shape = in[0].shape;
  for (size_t i = 1; i < in.size(); ++i) {
    NPU_ASSIGN_OR_RETURN(shape, BroadcastShape(shape, in[i].shape));
  }
  // The layout of an operand that already has the output's rank (activation + constant).
  ir::Layout layout = ir::Layout::kNone;
  for (const TensorRef& t : in) {
    if (t.layout != ir::Layout::kNone && t.shape.size() == shape.size()) {
      layout = t.layout;
      break;
    }
  }
  return Types{{dtype, std::move(shape), layout}};
}

namespace {

Status BinaryDispatch(ir::OpKind kind, const TensorRef& a, const TensorRef& b, HostTensor& out) {
  switch (a.dtype) {
    case ir::DType::kFloat32:
      return BinaryTyped<float>(kind, a, b, out);
    case ir::DType::kInt64:
      return BinaryTyped<int64_t>(kind, a, b, out);
    case ir::DType::kInt32:
      return BinaryTyped<int32_t>(kind, a, b, out);
    default:
      return Internal("unsupported element type");
  }
}

// Max / Min of n inputs: folded left to right, each partial result broadcast to the next.
Status VariadicKernel(ir::OpKind kind, Inputs in, HostTensor& out) {
  if (in.size() == 1) {
    std::memcpy(out.data.data(), in[0].data, out.data.size());
    return Status::Ok();
  }
  HostTensor acc;
  TensorRef left = in[0];
  for (size_t i = 1; i < in.size(); ++i) {
    NPU_ASSIGN_OR_RETURN(ir::Shape shape, BroadcastShape(left.shape, in[i].shape));
    HostTensor next = HostTensor::Zeros({in[0].dtype, std::move(shape), ir::Layout::kNone});
    NPU_TRY(BinaryDispatch(kind, left, in[i], next));
    acc = std::move(next);
    left = acc.ref();
  }
  NPU_CHECK(acc.data.size() == out.data.size());
  out.data = std::move(acc.data);
  return Status::Ok();
}

}  // namespace

Status BinaryKernel(const ir::Node& node, Inputs in, Outputs out) {
  if (node.kind() == ir::OpKind::kMax || node.kind() == ir::OpKind::kMin) {
    return VariadicKernel(node.kind(), in, out[0]);
  }
  NPU_TRY(BinaryDispatch(node.kind(), in[0], in[1], out[0]));
  if (node.kind() == ir::OpKind::kFusedAdd) {
    NPU_ASSIGN_OR_RETURN(const Activation act, ActivationOf(node));
    ApplyActivation(act, out[0].values<float>());
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
