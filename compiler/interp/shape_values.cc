// Ops that build or convert the small tensors of shape computations (and broadcast activations):
// Expand (X, shape -> X broadcast to broadcast(X.shape, shape)), ConstantOfShape (shape -> a
// tensor filled with the `value` attribute: a float attribute makes f32, an int one i64; default
// f32 0), Range (start, limit, delta scalars -> [max(ceil((limit - start) / delta), 0)]) and
// Cast (`to`: ONNX FLOAT 1, UINT8 2, INT8 3, INT32 6, INT64 7; float to integer truncates).
#include <cmath>
#include <cstring>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

StatusOr<ir::DType> CastTarget(const ir::Node& node) {
  switch (node.attrs().GetInt("to", 0)) {
    case 1:
      return ir::DType::kFloat32;
    case 2:
      return ir::DType::kUInt8;
    case 3:
      return ir::DType::kInt8;
    case 6:
      return ir::DType::kInt32;
    case 7:
      return ir::DType::kInt64;
    default:
      return Unimplemented(
          fmt::format("cast to ONNX type {} (FLOAT, UINT8, INT8, INT32 and INT64 "
                      "are supported)",
                      node.attrs().GetInt("to", 0)));
  }
}

template <class To>
void CastTo(const TensorRef& x, std::span<To> y) {
  auto copy = [&](auto from) {
    for (size_t i = 0; i < y.size(); ++i) y[i] = static_cast<To>(from[i]);
  };
  switch (x.dtype) {
    case ir::DType::kFloat32:
      return copy(x.values<float>());
    case ir::DType::kUInt8:
      return copy(x.values<uint8_t>());
    case ir::DType::kInt8:
      return copy(x.values<int8_t>());
    case ir::DType::kInt32:
      return copy(x.values<int32_t>());
    case ir::DType::kInt64:
      return copy(x.values<int64_t>());
    case ir::DType::kFloat16:  // no Cast produces or reads FP16 (CastTarget)
    case ir::DType::kUnknown:
      return;
  }
}

// A scalar (or one-element) operand of Range as double.
double Scalar(const TensorRef& t) {
  if (t.dtype == ir::DType::kFloat32) return t.values<float>()[0];
  return static_cast<double>(IntValues(t)[0]);
}

}  // namespace

StatusOr<Types> ExpandRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 2));
  NPU_TRY(ExpectValue(in, 1, "shape"));
  NPU_ASSIGN_OR_RETURN(ir::Shape shape, BroadcastShape(in[0].shape, IntValues(in[1])));
  const ir::Layout layout = shape == in[0].shape ? in[0].layout : ir::Layout::kNone;
  return Types{{in[0].dtype, std::move(shape), layout}};
}

Status ExpandKernel(const ir::Node& node, Inputs in, Outputs out) {
  const ir::Shape& shape = out[0].shape;
  const int64_t rank = static_cast<int64_t>(shape.size()), n = out[0].num_elements();
  const size_t elem = ir::DTypeBytes(in[0].dtype);
  std::vector<int64_t> stride(rank, 0), index(rank, 0);  // input strides, 0 where broadcast
  for (int64_t i = 0, s = 1; i < in[0].rank(); ++i) {
    const int64_t d = in[0].rank() - 1 - i;
    stride[rank - 1 - i] = in[0].shape[d] == 1 ? 0 : s;
    s *= in[0].shape[d];
  }
  int64_t src = 0;
  for (int64_t o = 0; o < n; ++o) {
    std::memcpy(out[0].data.data() + o * elem, in[0].data + src * elem, elem);
    for (int64_t d = rank - 1; d >= 0; --d) {
      src += stride[d];
      if (++index[d] < shape[d]) break;
      src -= stride[d] * shape[d];
      index[d] = 0;
    }
  }
  return Status::Ok();
}

StatusOr<Types> ConstantOfShapeRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 1));
  NPU_TRY(ExpectValue(in, 0, "shape"));
  if (in[0].rank() != 1) return InvalidArgument("the shape input must be 1-D");
  const std::vector<int64_t> shape = IntValues(in[0]);
  for (int64_t d : shape) {
    if (d < 0)
      return InvalidArgument(fmt::format("shape {} has a negative dim", ir::ShapeText(shape)));
  }
  const auto& values = node.attrs().values();
  const auto it = values.find("value");
  const bool is_int = it != values.end() && std::holds_alternative<int64_t>(it->second);
  if (it != values.end() && !is_int && !std::holds_alternative<float>(it->second)) {
    return InvalidArgument("value must be one float or one integer");
  }
  return Types{{is_int ? ir::DType::kInt64 : ir::DType::kFloat32, shape, ir::Layout::kNone}};
}

Status ConstantOfShapeKernel(const ir::Node& node, Inputs in, Outputs out) {
  if (out[0].dtype == ir::DType::kInt64) {
    const int64_t v = node.attrs().GetInt("value", 0);
    for (int64_t& y : out[0].values<int64_t>()) y = v;
  } else {
    const float v = node.attrs().GetFloat("value", 0.0f);
    for (float& y : out[0].values<float>()) y = v;
  }
  return Status::Ok();
}

StatusOr<Types> RangeRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 3, 3));
  const ir::DType dtype = in[0].dtype;
  if (dtype != ir::DType::kFloat32 && dtype != ir::DType::kInt64 && dtype != ir::DType::kInt32) {
    return InvalidArgument(
        fmt::format("element type {} is not f32, i32 or i64", ir::DTypeName(dtype)));
  }
  for (size_t i = 0; i < 3; ++i) {
    NPU_TRY(ExpectDType(in, i, dtype));
    if (in[i].num_elements() != 1)
      return InvalidArgument(fmt::format("input {} is not a scalar", i));
    if (!in[i].has_value()) {
      return InvalidArgument(fmt::format("input {} must be known at compile time", i));
    }
  }
  const double start = Scalar(in[0]), limit = Scalar(in[1]), delta = Scalar(in[2]);
  if (delta == 0) return InvalidArgument("delta is 0");
  const int64_t n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit - start) / delta)));
  return Types{{dtype, {n}, ir::Layout::kNone}};
}

Status RangeKernel(const ir::Node& node, Inputs in, Outputs out) {
  const double start = Scalar(in[0]), delta = Scalar(in[2]);
  const int64_t n = out[0].num_elements();
  for (int64_t i = 0; i < n; ++i) {
    const double v = start + static_cast<double>(i) * delta;
    if (out[0].dtype == ir::DType::kFloat32) {
      out[0].values<float>()[i] = static_cast<float>(v);
    } else if (out[0].dtype == ir::DType::kInt64) {
      out[0].values<int64_t>()[i] = static_cast<int64_t>(v);
    } else {
      out[0].values<int32_t>()[i] = static_cast<int32_t>(v);
    }
  }
  return Status::Ok();
}

StatusOr<Types> CastRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 1));
  NPU_ASSIGN_OR_RETURN(const ir::DType to, CastTarget(node));
  return Types{{to, in[0].shape, in[0].layout}};
}

Status CastKernel(const ir::Node& node, Inputs in, Outputs out) {
  switch (out[0].dtype) {
    case ir::DType::kFloat32:
      CastTo(in[0], out[0].values<float>());
      break;
    case ir::DType::kUInt8:
      CastTo(in[0], out[0].values<uint8_t>());
      break;
    case ir::DType::kInt8:
      CastTo(in[0], out[0].values<int8_t>());
      break;
    case ir::DType::kInt32:
      CastTo(in[0], out[0].values<int32_t>());
      break;
    case ir::DType::kInt64:
      CastTo(in[0], out[0].values<int64_t>());
      break;
    case ir::DType::kFloat16:
    case ir::DType::kUnknown:
      return Internal("cast to an unknown type");
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
