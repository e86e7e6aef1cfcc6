// Float 2-D convolution kernels for both activation layouts; weights are always OIHW
// ([Cout, Cin/group, KH, KW], the ONNX layout). Internal to compiler/interp.
#pragma once

#include <algorithm>
#include <cstdint>

#include "compiler/interp/op_util.h"

namespace npu::compiler::interp {

struct ConvGeometry {
  Act4D x;       // input dims and layout
  Window2D win;  // kernel, strides, pads, dilations, output size
  int64_t groups = 1, out_c = 0, in_c_per_group = 0, out_c_per_group = 0;
  bool depthwise() const { return in_c_per_group == 1 && out_c_per_group == 1; }
  bool pointwise() const {  // 1x1, stride 1, no padding: the input already is the GEMM operand
    return win.kh == 1 && win.kw == 1 && win.sh == 1 && win.sw == 1 && win.pad_t == 0 &&
           win.pad_l == 0 && win.pad_b == 0 && win.pad_r == 0;
  }
};

// Validates X, W[, B] and the attributes of a Conv / FusedConv / QLinearConv-like node.
// `x` and `w` are the activation and weight operands.
StatusOr<ConvGeometry> ResolveConv(const ir::Attributes& attrs, const TensorRef& x,
                                   const TensorRef& w);
inline StatusOr<ConvGeometry> ResolveConv(const ir::Node& node, const TensorRef& x,
                                          const TensorRef& w) {
  return ResolveConv(node.attrs(), x, w);
}

// y = conv(x, w) + bias (bias may be null), laid out like x. y is fully overwritten.
void ConvFloat(const ConvGeometry& g, const float* x, const float* w, const float* bias, float* y);

// The kernels ConvFloat picks from (conv_gemm.cc, conv_depthwise.cc); bias is added after.
void ConvGemmNCHW(const ConvGeometry& g, const float* x, const float* w, float* y);
void ConvGemmNHWC(const ConvGeometry& g, const float* x, const float* w, float* y);
void ConvDepthwiseNCHW(const ConvGeometry& g, const float* x, const float* w, float* y);
void ConvDepthwiseNHWC(const ConvGeometry& g, const float* x, const float* w, float* y);

// The output positions o in [0, out) whose input coordinate o * stride + offset lies in [0, in):
// [*lo, *hi). Lets kernels skip the padding without a test per element.
inline void ValidRange(int64_t in, int64_t out, int64_t stride, int64_t offset, int64_t* lo,
                       int64_t* hi) {
  // o * stride + offset >= 0  <=>  o >= ceil(-offset / stride)
  *lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  // o * stride + offset <= in - 1  <=>  o <= floor((in - 1 - offset) / stride)
  const int64_t last = in - 1 - offset;
  *hi = last < 0 ? 0 : std::min(out, last / stride + 1);
  *lo = std::min(*lo, *hi);
}

}  // namespace npu::compiler::interp
