// ONNX quantisation ops as imported: QuantizeLinear, DequantizeLinear (per tensor or per `axis`),
// QLinearConv and QLinearMatMul. The QLinear kernels are a float reference (dequantise, compute in
// float, requantise, round half to even), not the NPU's integer arithmetic.
#include <cmath>

#include "compiler/interp/conv_kernels.h"
#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

bool IsQuantType(ir::DType d) { return d == ir::DType::kInt8 || d == ir::DType::kUInt8; }

float ScalarAt(const TensorRef& t, int64_t i) {
  return t.dtype == ir::DType::kFloat32 ? t.values<float>()[i] : 0.0f;
}

int32_t ZeroPointAt(const TensorRef* zp, int64_t i) {
  if (zp == nullptr || !zp->present()) return 0;
  switch (zp->dtype) {
    case ir::DType::kInt8:
      return zp->values<int8_t>()[zp->num_elements() == 1 ? 0 : i];
    case ir::DType::kUInt8:
      return zp->values<uint8_t>()[zp->num_elements() == 1 ? 0 : i];
    case ir::DType::kInt32:
      return zp->values<int32_t>()[zp->num_elements() == 1 ? 0 : i];
    default:
      return 0;
  }
}

// Index into the per-channel parameters of element i of `shape` (0 when per tensor).
struct ChannelOf {
  int64_t inner = 1, channels = 1;
  int64_t operator()(int64_t i) const { return channels == 1 ? 0 : (i / inner) % channels; }
};
StatusOr<ChannelOf> Channels(const ir::Shape& shape, const TensorRef& scale, int64_t axis_attr) {
  ChannelOf c;
  if (scale.num_elements() == 1) return c;
  NPU_ASSIGN_OR_RETURN(const int64_t axis,
                       NormalizeAxis(axis_attr, static_cast<int64_t>(shape.size())));
  if (scale.num_elements() != shape[axis]) {
    return InvalidArgument(
        fmt::format("{} scales for axis {} of size {}", scale.num_elements(), axis, shape[axis]));
  }
  c.channels = shape[axis];
  for (size_t d = axis + 1; d < shape.size(); ++d) c.inner *= shape[d];
  return c;
}

std::vector<float> Dequantize(const TensorRef& q, const TensorRef& scale, const TensorRef* zp,
                              const ChannelOf& ch) {
  std::vector<float> out(static_cast<size_t>(q.num_elements()));
  for (int64_t i = 0; i < q.num_elements(); ++i) {
    const int64_t c = ch(i);
    const int32_t v = q.dtype == ir::DType::kInt8    ? q.values<int8_t>()[i]
                      : q.dtype == ir::DType::kUInt8 ? q.values<uint8_t>()[i]
                                                     : q.values<int32_t>()[i];
    out[i] = static_cast<float>(v - ZeroPointAt(zp, c)) * ScalarAt(scale, c);
  }
  return out;
}

void Quantize(std::span<const float> x, const TensorRef& scale, const TensorRef* zp,
              const ChannelOf& ch, HostTensor& out) {
  const bool is_signed = out.dtype == ir::DType::kInt8;
  const float lo = is_signed ? -128.f : 0.f, hi = is_signed ? 127.f : 255.f;
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t c = ch(static_cast<int64_t>(i));
    const float q = std::nearbyint(x[i] / ScalarAt(scale, c)) + float(ZeroPointAt(zp, c));
    const float v = std::min(std::max(q, lo), hi);
    if (is_signed)
      out.values<int8_t>()[i] = static_cast<int8_t>(v);
    else
      out.values<uint8_t>()[i] = static_cast<uint8_t>(v);
  }
}

const TensorRef* Optional(Inputs in, size_t i) {
  return i < in.size() && in[i].present() ? &in[i] : nullptr;
}

}  // namespace

StatusOr<Types> QuantizeLinearRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 3));
  NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  NPU_TRY(ExpectDType(in, 1, ir::DType::kFloat32));
  const ir::DType out = Optional(in, 2) ? in[2].dtype : ir::DType::kUInt8;
  if (!IsQuantType(out)) return InvalidArgument("zero point must be i8 or u8");
  NPU_TRY(Channels(in[0].shape, in[1], node.attrs().GetInt("axis", 1)).status());
  return Types{{out, in[0].shape, in[0].layout}};
}

Status QuantizeLinearKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const ChannelOf ch,
                       Channels(in[0].shape, in[1], node.attrs().GetInt("axis", 1)));
  Quantize(in[0].values<float>(), in[1], Optional(in, 2), ch, out[0]);
  return Status::Ok();
}

StatusOr<Types> DequantizeLinearRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 3));
  if (!IsQuantType(in[0].dtype) && in[0].dtype != ir::DType::kInt32) {
    return InvalidArgument("input must be i8, u8 or i32");
  }
  NPU_TRY(ExpectDType(in, 1, ir::DType::kFloat32));
  NPU_TRY(Channels(in[0].shape, in[1], node.attrs().GetInt("axis", 1)).status());
  return Types{{ir::DType::kFloat32, in[0].shape, in[0].layout}};
}

Status DequantizeLinearKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const ChannelOf ch,
                       Channels(in[0].shape, in[1], node.attrs().GetInt("axis", 1)));
  const std::vector<float> v = Dequantize(in[0], in[1], Optional(in, 2), ch);
  std::copy(v.begin(), v.end(), out[0].values<float>().begin());
  return Status::Ok();
}

StatusOr<Types> QLinearConvRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 8, 9));
  if (!IsQuantType(in[0].dtype) || !IsQuantType(in[3].dtype) || !IsQuantType(in[7].dtype)) {
    return InvalidArgument("x, w and y_zero_point must be i8 or u8");
  }
  NPU_ASSIGN_OR_RETURN(const ConvGeometry g, ResolveConv(node, in[0], in[3]));
  return Types{{in[7].dtype, ActShape(g.x.n, g.out_c, g.win.out_h, g.win.out_w, g.x.nhwc),
                ActLayout(in[0])}};
}

StatusOr<Types> QLinearMatMulRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 8, 8));
  if (!IsQuantType(in[0].dtype) || !IsQuantType(in[3].dtype) || !IsQuantType(in[7].dtype)) {
    return InvalidArgument("a, b and y_zero_point must be i8 or u8");
  }
  const TensorRef a{ir::DType::kFloat32, in[0].shape}, b{ir::DType::kFloat32, in[3].shape};
  const TensorRef operands[] = {a, b};
  NPU_ASSIGN_OR_RETURN(Types types, MatMulRule(node, operands));
  types[0].dtype = in[7].dtype;
  return types;
}

Status QLinearKernel(const ir::Node& node, Inputs in, Outputs out) {
  // 1. Dequantise both operands (w per output channel: axis 0; b per column: axis -1).
  const bool conv = node.kind() == ir::OpKind::kQLinearConv;
  NPU_ASSIGN_OR_RETURN(const ChannelOf ca, Channels(in[0].shape, in[1], 1));
  NPU_ASSIGN_OR_RETURN(const ChannelOf cb, Channels(in[3].shape, in[4], conv ? 0 : -1));
  const std::vector<float> a = Dequantize(in[0], in[1], &in[2], ca);
  const std::vector<float> b = Dequantize(in[3], in[4], &in[5], cb);
  // 2. Compute in float (the conv's int32 bias dequantises with x_scale * w_scale).
  HostTensor y = HostTensor::Zeros({ir::DType::kFloat32, out[0].shape, out[0].layout});
  if (conv) {
    NPU_ASSIGN_OR_RETURN(const ConvGeometry g, ResolveConv(node, in[0], in[3]));
    std::vector<float> bias;
    if (in.size() == 9 && in[8].present()) {
      NPU_TRY(ExpectDType(in, 8, ir::DType::kInt32));
      for (int64_t c = 0; c < g.out_c; ++c) {
        bias.push_back(float(in[8].values<int32_t>()[c]) * ScalarAt(in[1], 0) *
                       ScalarAt(in[4], in[4].num_elements() == 1 ? 0 : c));
      }
    }
    ConvFloat(g, a.data(), b.data(), bias.empty() ? nullptr : bias.data(),
              y.values<float>().data());
  } else {
    const HostTensor ta = HostTensor::FromValues(in[0].shape, a);
    const HostTensor tb = HostTensor::FromValues(in[3].shape, b);
    const TensorRef operands[] = {ta.ref(), tb.ref()};
    HostTensor* outs = &y;
    NPU_TRY(MatMulKernel(node, operands, std::span<HostTensor>(outs, 1)));
  }
  // 3. Requantise with the output's parameters (per tensor).
  Quantize(y.values<float>(), in[6], &in[7], ChannelOf{}, out[0]);
  return Status::Ok();
}

}  // namespace npu::compiler::interp
