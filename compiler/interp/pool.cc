// MaxPool, AveragePool (2-D, ONNX attributes incl. ceil_mode, count_include_pad, dilations) and
// GlobalAveragePool, in both layouts; 1-D ones on [N,C,L] run as 2-D with H = 1. Taps are resolved
// once per output position and reused for every image and channel; addressing by strides makes one
// loop serve NCHW and NHWC.
#include <algorithm>
#include <limits>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

// Element strides of a 4-D activation: per image, per channel, per pixel (h * W + w).
struct Strides {
  int64_t n, c, pixel;
};
Strides StridesOf(const Act4D& a, int64_t h, int64_t w) {
  return a.nhwc ? Strides{h * w * a.c, 1, a.c} : Strides{a.c * h * w, h * w, 1};
}

// The taps of one output position: input pixels inside the tensor, and how many taps fall inside
// the padded tensor (the count_include_pad divisor; taps past the padding, which ceil_mode can
// create, never count).
struct Taps {
  std::vector<int64_t> pixels;
  int64_t padded_count = 0;
};
void CollectTaps(const Window2D& w, int64_t oh, int64_t ow, Taps& taps) {
  taps.pixels.clear();
  taps.padded_count = 0;
  for (int64_t kh = 0; kh < w.kh; ++kh) {
    const int64_t ih = oh * w.sh - w.pad_t + kh * w.dh;
    for (int64_t kw = 0; kw < w.kw; ++kw) {
      const int64_t iw = ow * w.sw - w.pad_l + kw * w.dw;
      if (ih >= -w.pad_t && ih < w.in_h + w.pad_b && iw >= -w.pad_l && iw < w.in_w + w.pad_r) {
        ++taps.padded_count;
      }
      if (ih >= 0 && ih < w.in_h && iw >= 0 && iw < w.in_w) taps.pixels.push_back(ih * w.in_w + iw);
    }
  }
}

// `x` already widened to 4-D.
StatusOr<Window2D> PoolWindow(const ir::Node& node, const TensorRef& x) {
  const bool one_d = node.attrs().GetInts("kernel_shape").size() == 1;
  const ir::Attributes attrs = one_d ? WidenAttributes1D(node.attrs()) : node.attrs();
  const std::vector<int64_t> kernel = attrs.GetInts("kernel_shape");
  if (kernel.size() != 2) return InvalidArgument("kernel_shape must have 1 or 2 values");
  const Act4D a = ActDims(x);
  return ResolveWindow(attrs, a.h, a.w, kernel[0], kernel[1], attrs.GetInt("ceil_mode", 0) != 0);
}

// A 1-D pool's input [N,C,L] must come with a 1-D kernel, a 2-D one's [N,C,H,W] with a 2-D one.
Status ExpectPoolRank(const ir::Node& node, Inputs in) {
  const size_t k = node.attrs().GetInts("kernel_shape").size();
  if (in[0].rank() != static_cast<int64_t>(k) + 2 || (k != 1 && k != 2)) {
    return InvalidArgument(fmt::format("input {} with a {}-D kernel; 1-D and 2-D pools only",
                                       ir::ShapeText(in[0].shape), k));
  }
  return Status::Ok();
}

// Calls reduce(out_offset, in_base, in_pixel_stride, taps) for every output element.
template <class Reduce>
void ForEachOutput(const Act4D& a, const Window2D& w, Reduce reduce) {
  const Strides in = StridesOf(a, w.in_h, w.in_w), out = StridesOf(a, w.out_h, w.out_w);
  Taps taps;
  for (int64_t oh = 0; oh < w.out_h; ++oh) {
    for (int64_t ow = 0; ow < w.out_w; ++ow) {
      CollectTaps(w, oh, ow, taps);
      const int64_t out_pixel = oh * w.out_w + ow;
      for (int64_t n = 0; n < a.n; ++n) {
        for (int64_t c = 0; c < a.c; ++c) {
          reduce(n * out.n + c * out.c + out_pixel * out.pixel, n * in.n + c * in.c, in.pixel,
                 taps);
        }
      }
    }
  }
}

}  // namespace

StatusOr<Types> PoolRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 1));
  NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  NPU_TRY(ExpectPoolRank(node, in));
  if (node.num_outputs() != 1) return Unimplemented("MaxPool's Indices output is not supported");
  const TensorRef x = Widen1D(in[0]);
  NPU_ASSIGN_OR_RETURN(const Window2D w, PoolWindow(node, x));
  const Act4D a = ActDims(x);
  const TensorType out{ir::DType::kFloat32, ActShape(a.n, a.c, w.out_h, w.out_w, a.nhwc),
                       ActLayout(x)};
  return Types{in[0].rank() == 3 ? Narrow1D(out) : out};
}

Status MaxPoolKernel(const ir::Node& node, Inputs in, Outputs out) {
  const TensorRef xr = Widen1D(in[0]);
  NPU_ASSIGN_OR_RETURN(const Window2D w, PoolWindow(node, xr));
  const float* x = in[0].values<float>().data();
  float* y = out[0].values<float>().data();
  ForEachOutput(ActDims(xr), w, [&](int64_t o, int64_t base, int64_t stride, const Taps& t) {
    float m = -std::numeric_limits<float>::infinity();
    for (int64_t p : t.pixels) m = std::max(m, x[base + p * stride]);
    y[o] = m;
  });
  return Status::Ok();
}

Status AveragePoolKernel(const ir::Node& node, Inputs in, Outputs out) {
  const TensorRef xr = Widen1D(in[0]);
  NPU_ASSIGN_OR_RETURN(const Window2D w, PoolWindow(node, xr));
  const bool include_pad = node.attrs().GetInt("count_include_pad", 0) != 0;
  const float* x = in[0].values<float>().data();
  float* y = out[0].values<float>().data();
  ForEachOutput(ActDims(xr), w, [&](int64_t o, int64_t base, int64_t stride, const Taps& t) {
    float sum = 0;
    for (int64_t p : t.pixels) sum += x[base + p * stride];
    const int64_t count = include_pad ? t.padded_count : static_cast<int64_t>(t.pixels.size());
    y[o] = count > 0 ? sum / static_cast<float>(count) : 0.0f;
  });
  return Status::Ok();
}

StatusOr<Types> GlobalAveragePoolRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 1));
  NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  if (in[0].rank() != 3) NPU_TRY(ExpectRank(in, 0, 4));
  const Act4D a = ActDims(Widen1D(in[0]));
  const TensorType out{ir::DType::kFloat32, ActShape(a.n, a.c, 1, 1, a.nhwc), ActLayout(in[0])};
  return Types{in[0].rank() == 3 ? Narrow1D(out) : out};
}

Status GlobalAveragePoolKernel(const ir::Node& node, Inputs in, Outputs out) {
  const Act4D a = ActDims(Widen1D(in[0]));
  const Strides s = StridesOf(a, a.h, a.w);
  const float* x = in[0].values<float>().data();
  float* y = out[0].values<float>().data();
  const int64_t pixels = a.h * a.w;
  for (int64_t n = 0; n < a.n; ++n) {
    for (int64_t c = 0; c < a.c; ++c) {
      const float* xc = x + n * s.n + c * s.c;
      double sum = 0;  // a 112x112 plane summed in float would lose digits
      for (int64_t p = 0; p < pixels; ++p) sum += xc[p * s.pixel];
      y[n * a.c + c] = static_cast<float>(sum / static_cast<double>(pixels));
    }
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
