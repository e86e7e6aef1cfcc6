// ConvTranspose (2-D; X, W[, B] -> Y): W is [Cin, Cout/group, KH, KW] (ONNX). Every input pixel
// scatters its weighted kernel into the output:
//   Y[n, g*Cog + o, y, x] += X[n, g*Cig + c, i, j] * W[g*Cig + c, o, kh, kw]
//   with y = i*sh - pad_top + kh*dh, x = j*sw - pad_left + kw*dw (dropped outside the output).
// Output size per spatial dim: s*(in - 1) + output_padding + (k - 1)*d + 1 - pad_begin - pad_end.
// Both activation layouts (the channel axis from the layout, as Conv).
#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

struct Deconv {
  Act4D x;
  int64_t groups = 1, in_per_group = 0, out_per_group = 0, out_c = 0;
  int64_t kh = 0, kw = 0, sh = 1, sw = 1, dh = 1, dw = 1, pad_t = 0, pad_l = 0;
  int64_t out_h = 0, out_w = 0;
};

StatusOr<Deconv> ResolveDeconv(const ir::Attributes& a, const TensorRef& x, const TensorRef& w) {
  if (x.rank() != 4 || w.rank() != 4) {
    return Unimplemented(fmt::format("only 2-D transposed convolutions: input {} and weights {}",
                                     ir::ShapeText(x.shape), ir::ShapeText(w.shape)));
  }
  Deconv d;
  d.x = ActDims(x);
  d.groups = a.GetInt("group", 1);
  if (d.groups < 1 || w.shape[0] != d.x.c || d.x.c % d.groups != 0) {
    return InvalidArgument(
        fmt::format("input has {} channels, weights {} (Cin, Cout/group, kh, "
                    "kw) and group={}",
                    d.x.c, ir::ShapeText(w.shape), d.groups));
  }
  d.in_per_group = d.x.c / d.groups, d.out_per_group = w.shape[1];
  d.out_c = d.out_per_group * d.groups, d.kh = w.shape[2], d.kw = w.shape[3];
  const std::vector<int64_t> s = a.GetInts("strides", {1, 1}), dil = a.GetInts("dilations", {1, 1});
  const std::vector<int64_t> p = a.GetInts("pads", {0, 0, 0, 0});
  const std::vector<int64_t> op = a.GetInts("output_padding", {0, 0});
  if (s.size() != 2 || dil.size() != 2 || p.size() != 4 || op.size() != 2) {
    return InvalidArgument("strides, dilations, output_padding need 2 values and pads 4");
  }
  if (a.Has("output_shape")) return Unimplemented("output_shape (give pads instead)");
  NPU_TRY(CheckWindowValues("kernel", {d.kh, d.kw}));
  NPU_TRY(CheckWindowValues("strides", s));
  NPU_TRY(CheckWindowValues("dilations", dil));
  NPU_TRY(CheckWindowValues("pads", p));
  NPU_TRY(CheckWindowValues("output_padding", op));
  d.sh = s[0], d.sw = s[1], d.dh = dil[0], d.dw = dil[1], d.pad_t = p[0], d.pad_l = p[1];
  d.out_h = d.sh * (d.x.h - 1) + op[0] + (d.kh - 1) * d.dh + 1 - p[0] - p[2];
  d.out_w = d.sw * (d.x.w - 1) + op[1] + (d.kw - 1) * d.dw + 1 - p[1] - p[3];
  if (d.sh < 1 || d.sw < 1 || d.dh < 1 || d.dw < 1 || d.out_h < 1 || d.out_w < 1 || op[0] < 0 ||
      op[1] < 0 || op[0] >= std::max(d.sh, d.dh) || op[1] >= std::max(d.sw, d.dw)) {
    return InvalidArgument(
        fmt::format("strides {}, dilations {}, pads {}, output_padding {} "
                    "give no valid output",
                    ir::ShapeText(s), ir::ShapeText(dil), ir::ShapeText(p), ir::ShapeText(op)));
  }
  return d;
}

}  // namespace

StatusOr<Types> ConvTransposeRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 3));
  NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  NPU_TRY(ExpectDType(in, 1, ir::DType::kFloat32));
  NPU_ASSIGN_OR_RETURN(const Deconv d, ResolveDeconv(node.attrs(), in[0], in[1]));
  if (in.size() == 3 && in[2].present() && in[2].shape != ir::Shape{d.out_c}) {
    return InvalidArgument(
        fmt::format("bias has shape {}, expected [{}]", ir::ShapeText(in[2].shape), d.out_c));
  }
  return Types{{ir::DType::kFloat32, ActShape(d.x.n, d.out_c, d.out_h, d.out_w, d.x.nhwc),
                ActLayout(in[0])}};
}

Status ConvTransposeKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const Deconv d, ResolveDeconv(node.attrs(), in[0], in[1]));
  const float* x = in[0].values<float>().data();
  const float* w = in[1].values<float>().data();
  float* y = out[0].values<float>().data();
  // Element offsets of (n, c, h, w) in either layout.
  auto at = [&](int64_t n, int64_t c, int64_t h, int64_t ww, int64_t C, int64_t H, int64_t W) {
    return d.x.nhwc ? ((n * H + h) * W + ww) * C + c : ((n * C + c) * H + h) * W + ww;
  };
  const bool has_bias = in.size() == 3 && in[2].present();
  for (int64_t n = 0; n < d.x.n; ++n) {
    for (int64_t c = 0; c < d.x.c; ++c) {
      const int64_t g = c / d.in_per_group;
      for (int64_t i = 0; i < d.x.h; ++i) {
        for (int64_t j = 0; j < d.x.w; ++j) {
          const float v = x[at(n, c, i, j, d.x.c, d.x.h, d.x.w)];
          for (int64_t o = 0; o < d.out_per_group; ++o) {
            const int64_t oc = g * d.out_per_group + o;
            const float* wk = w + (c * d.out_per_group + o) * d.kh * d.kw;
            for (int64_t kh = 0; kh < d.kh; ++kh) {
              const int64_t oy = i * d.sh - d.pad_t + kh * d.dh;
              if (oy < 0 || oy >= d.out_h) continue;
              for (int64_t kw = 0; kw < d.kw; ++kw) {
                const int64_t ox = j * d.sw - d.pad_l + kw * d.dw;
                if (ox < 0 || ox >= d.out_w) continue;
                y[at(n, oc, oy, ox, d.out_c, d.out_h, d.out_w)] += v * wk[kh * d.kw + kw];
              }
            }
          }
        }
      }
    }
  }
  if (has_bias) {
    const std::span<const float> b = in[2].values<float>();
    const int64_t plane = d.out_h * d.out_w;
    for (int64_t i = 0; i < out[0].num_elements(); ++i) {
      y[i] += b[d.x.nhwc ? i % d.out_c : (i / plane) % d.out_c];
    }
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
