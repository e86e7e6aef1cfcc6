// Conv and FusedConv: X, W[, B] -> Y, 2-D (and 1-D, run as 2-D with H = 1); W is OIHW in both
// activation layouts. FusedConv adds the `activation` attribute (none, relu, relu6) applied
// after the bias.
#include <fmt/format.h>

#include "compiler/interp/conv_kernels.h"
#include "compiler/interp/ops.h"

namespace npu::compiler::interp {

StatusOr<ConvGeometry> ResolveConv(const ir::Attributes& attrs, const TensorRef& x,
                                   const TensorRef& w) {
  if (x.rank() != 4 || w.rank() != 4) {
    return Unimplemented(fmt::format("only 2-D convolutions: input {} and weights {} must be 4-D",
                                     ir::ShapeText(x.shape), ir::ShapeText(w.shape)));
  }
  ConvGeometry g;
  g.x = ActDims(x);
  g.groups = attrs.GetInt("group", 1);
  g.out_c = w.shape[0];
  g.in_c_per_group = w.shape[1];
  if (g.groups < 1 || g.x.c % g.groups != 0 || g.out_c % g.groups != 0 ||
      g.in_c_per_group * g.groups != g.x.c) {
    return InvalidArgument(fmt::format(
        "input has {} channels, weights {} (OIHW) and group={}: needs C = W[1] * group and "
        "W[0] divisible by group",
        g.x.c, ir::ShapeText(w.shape), g.groups));
  }
  g.out_c_per_group = g.out_c / g.groups;
  const std::vector<int64_t> kernel = attrs.GetInts("kernel_shape", {w.shape[2], w.shape[3]});
  if (kernel != std::vector<int64_t>{w.shape[2], w.shape[3]}) {
    return InvalidArgument(fmt::format("kernel_shape {} disagrees with weights {}",
                                       ir::ShapeText(kernel), ir::ShapeText(w.shape)));
  }
  NPU_ASSIGN_OR_RETURN(g.win, ResolveWindow(attrs, g.x.h, g.x.w, w.shape[2], w.shape[3], false));
  return g;
}

void ConvFloat(const ConvGeometry& g, const float* x, const float* w, const float* bias, float* y) {
  // 1. The convolution proper, by the kernel that suits the shape.
  if (g.depthwise()) {
    g.x.nhwc ? ConvDepthwiseNHWC(g, x, w, y) : ConvDepthwiseNCHW(g, x, w, y);
  } else {
    g.x.nhwc ? ConvGemmNHWC(g, x, w, y) : ConvGemmNCHW(g, x, w, y);
  }
  if (bias == nullptr) return;
  // 2. Bias, per output channel along the layout's channel axis.
  const int64_t plane = g.win.out_h * g.win.out_w;
  for (int64_t n = 0; n < g.x.n; ++n) {
    float* yn = y + n * plane * g.out_c;
    if (g.x.nhwc) {
      for (int64_t p = 0; p < plane; ++p) {
        for (int64_t c = 0; c < g.out_c; ++c) yn[p * g.out_c + c] += bias[c];
      }
    } else {
      for (int64_t c = 0; c < g.out_c; ++c) {
        for (int64_t p = 0; p < plane; ++p) yn[c * plane + p] += bias[c];
      }
    }
  }
}

namespace {

// A 1-D conv ([N,C,L], W [O,I,K]) seen as a 2-D one with H = 1; 2-D ones as they are.
struct Conv2DView {
  TensorRef x, w;
  ir::Attributes attrs;
  bool one_d = false;
};
Conv2DView AsConv2D(const ir::Node& node, Inputs in) {
  const bool one_d = in[0].rank() == 3 && in[1].rank() == 3;
  if (!one_d) return {in[0], in[1], node.attrs(), false};
  return {Widen1D(in[0]), Widen1D(in[1]), WidenAttributes1D(node.attrs()), true};
}

}  // namespace

StatusOr<Types> ConvRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 3));
  NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  NPU_TRY(ExpectDType(in, 1, ir::DType::kFloat32));
  const Conv2DView v = AsConv2D(node, in);
  NPU_ASSIGN_OR_RETURN(const ConvGeometry g, ResolveConv(v.attrs, v.x, v.w));
  if (in.size() == 3 && in[2].present()) {
    NPU_TRY(ExpectDType(in, 2, ir::DType::kFloat32));
    if (in[2].shape != ir::Shape{g.out_c}) {
      return InvalidArgument(
          fmt::format("bias has shape {}, expected [{}]", ir::ShapeText(in[2].shape), g.out_c));
    }
  }
  if (node.kind() == ir::OpKind::kFusedConv) NPU_TRY(ActivationOf(node).status());
  const TensorType out{ir::DType::kFloat32,
                       ActShape(g.x.n, g.out_c, g.win.out_h, g.win.out_w, g.x.nhwc),
                       ActLayout(in[0])};
  return Types{v.one_d ? Narrow1D(out) : out};
}

Status ConvKernel(const ir::Node& node, Inputs in, Outputs out) {
  const Conv2DView v = AsConv2D(node, in);
  NPU_ASSIGN_OR_RETURN(const ConvGeometry g, ResolveConv(v.attrs, v.x, v.w));
  const bool has_bias = in.size() == 3 && in[2].present();
  ConvFloat(g, in[0].values<float>().data(), in[1].values<float>().data(),
            has_bias ? in[2].values<float>().data() : nullptr, out[0].values<float>().data());
  if (node.kind() == ir::OpKind::kFusedConv) {
    NPU_ASSIGN_OR_RETURN(const Activation act, ActivationOf(node));
    ApplyActivation(act, out[0].values<float>());
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
