// Resize (ONNX opset 11..17; inputs X, roi, scales, sizes), modes "nearest" and "linear" over any
// axes. Output size per axis: sizes[d], or floor(in * scales[d]). Steps per output coordinate x
// along an axis of input size `in` and scale s (out / in when sizes are given):
//   1. coordinate_transformation_mode gives the input coordinate: half_pixel (x + 0.5) / s - 0.5;
//      pytorch_half_pixel the same, or 0 when out == 1; align_corners x * (in - 1) / (out - 1)
//      (0 when out == 1); asymmetric x / s; tf_half_pixel_for_nn (x + 0.5) / s.
//   2. nearest: nearest_mode rounds it (round_prefer_floor, round_prefer_ceil, floor, ceil);
//      linear: the two neighbours floor(c) and floor(c) + 1 weighted by the fraction.
//   3. Indices are clamped to [0, in - 1] (ONNX's reference pads with the edge; torch clamps).
// Linear over several axes is separable: the kernel resizes one axis at a time.
#include <algorithm>
#include <cmath>

#include "compiler/interp/ops.h"
#include "compiler/interp/resize_taps.h"

namespace npu::compiler::interp {
namespace {

using Tap = ResizeTap;

struct ResizePlan {
  ir::Shape out;
  std::vector<float> scales;
};

StatusOr<ResizePlan> PlanResize(Inputs in) {
  const bool has_scales = in.size() > 2 && in[2].present() && in[2].num_elements() > 0;
  const bool has_sizes = in.size() > 3 && in[3].present() && in[3].num_elements() > 0;
  if (has_scales == has_sizes) return InvalidArgument("needs exactly one of scales and sizes");
  const int64_t rank = in[0].rank();
  ResizePlan p{ir::Shape(rank), std::vector<float>(rank)};
  if (has_sizes) {
    NPU_TRY(ExpectValue(in, 3, "sizes"));
    const std::vector<int64_t> sizes = IntValues(in[3]);
    if (static_cast<int64_t>(sizes.size()) != rank) {
      return InvalidArgument(fmt::format("sizes has {} values for rank {}", sizes.size(), rank));
    }
    for (int64_t d = 0; d < rank; ++d) {
      if (sizes[d] < 1) return InvalidArgument(fmt::format("sizes {}", ir::ShapeText(sizes)));
      p.out[d] = sizes[d];
      p.scales[d] = static_cast<float>(sizes[d]) / static_cast<float>(in[0].shape[d]);
    }
    return p;
  }
  if (in[2].dtype != ir::DType::kFloat32 || !in[2].has_value()) {
    return InvalidArgument("scales must be a known f32 tensor");
  }
  const std::span<const float> s = in[2].values<float>();
  if (static_cast<int64_t>(s.size()) != rank) {
    return InvalidArgument(fmt::format("scales has {} values for rank {}", s.size(), rank));
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (!(s[d] > 0)) return InvalidArgument(fmt::format("scale {} is not positive", s[d]));
    p.scales[d] = s[d];
    p.out[d] = static_cast<int64_t>(std::floor(static_cast<double>(in[0].shape[d]) * s[d]));
  }
  return p;
}

StatusOr<float> SourceCoordinate(const std::string& mode, int64_t x, int64_t in, int64_t out,
                                 float scale) {
  const float xf = static_cast<float>(x);
  if (mode == "half_pixel") return (xf + 0.5f) / scale - 0.5f;
  if (mode == "pytorch_half_pixel") return out > 1 ? (xf + 0.5f) / scale - 0.5f : 0.0f;
  if (mode == "align_corners") {
    return out == 1 ? 0.0f : xf * static_cast<float>(in - 1) / static_cast<float>(out - 1);
  }
  if (mode == "asymmetric") return xf / scale;
  if (mode == "tf_half_pixel_for_nn") return (xf + 0.5f) / scale;
  return Unimplemented(fmt::format("coordinate_transformation_mode \"{}\"", mode));
}

StatusOr<int64_t> Nearest(const std::string& mode, float c) {
  const float f = std::floor(c);
  if (mode == "round_prefer_floor") return static_cast<int64_t>(c - f == 0.5f ? f : std::round(c));
  if (mode == "round_prefer_ceil")
    return static_cast<int64_t>(c - f == 0.5f ? f + 1 : std::round(c));
  if (mode == "floor") return static_cast<int64_t>(f);
  if (mode == "ceil") return static_cast<int64_t>(std::ceil(c));
  return InvalidArgument(fmt::format("nearest_mode \"{}\" is not an ONNX value", mode));
}

}  // namespace

StatusOr<std::vector<ResizeTap>> ResizeAxisTaps(const ir::Attributes& a, int64_t in, int64_t out,
                                                float scale) {
  const std::string mode = a.GetString("mode", "nearest");
  const std::string ctm = a.GetString("coordinate_transformation_mode", "half_pixel");
  const std::string nearest = a.GetString("nearest_mode", "round_prefer_floor");
  std::vector<Tap> taps(out);
  auto clamp = [in](int64_t i) { return std::clamp<int64_t>(i, 0, in - 1); };
  for (int64_t x = 0; x < out; ++x) {
    NPU_ASSIGN_OR_RETURN(const float c, SourceCoordinate(ctm, x, in, out, scale));
    if (mode == "nearest") {
      NPU_ASSIGN_OR_RETURN(const int64_t i, Nearest(nearest, c));
      taps[x] = {clamp(i), clamp(i), 0.0f};
    } else if (mode == "linear") {
      const float f = std::floor(c);
      const int64_t i = static_cast<int64_t>(f);
      taps[x] = {clamp(i), clamp(i + 1), c - f};
    } else {
      return Unimplemented(
          fmt::format("resize mode \"{}\" (nearest and linear are supported)", mode));
    }
  }
  return taps;
}

namespace {

StatusOr<std::vector<Tap>> AxisTaps(const ir::Attributes& a, int64_t in, int64_t out, float scale) {
  return ResizeAxisTaps(a, in, out, scale);
}

bool IsIdentity(const std::vector<Tap>& taps, int64_t in) {
  if (static_cast<int64_t>(taps.size()) != in) return false;
  for (size_t x = 0; x < taps.size(); ++x) {
    if (taps[x].i0 != static_cast<int64_t>(x) || (taps[x].w1 != 0 && taps[x].i1 != taps[x].i0)) {
      return false;
    }
  }
  return true;
}

// Resizes axis `axis` of `x` (shape `shape`) into `y` with `taps`.
void ResizeAxis(const std::vector<float>& x, const ir::Shape& shape, int64_t axis,
                const std::vector<Tap>& taps, std::vector<float>& y) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < axis) outer *= shape[d];
    if (d > axis) inner *= shape[d];
  }
  const int64_t in = shape[axis], out = static_cast<int64_t>(taps.size());
  y.assign(outer * out * inner, 0.0f);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < out; ++k) {
      const Tap& t = taps[k];
      const float* a = x.data() + (o * in + t.i0) * inner;
      const float* b = x.data() + (o * in + t.i1) * inner;
      float* dst = y.data() + (o * out + k) * inner;
      for (int64_t i = 0; i < inner; ++i) dst[i] = a[i] + t.w1 * (b[i] - a[i]);
    }
  }
}

}  // namespace

StatusOr<Types> ResizeRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 4));
  NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  NPU_ASSIGN_OR_RETURN(ResizePlan p, PlanResize(in));
  for (int64_t d = 0; d < in[0].rank(); ++d) {  // validates the attributes
    NPU_TRY(AxisTaps(node.attrs(), in[0].shape[d], 1, p.scales[d]).status());
  }
  return Types{{ir::DType::kFloat32, std::move(p.out), in[0].layout}};
}

Status ResizeKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const ResizePlan p, PlanResize(in));
  std::vector<float> x(in[0].values<float>().begin(), in[0].values<float>().end()), y;
  ir::Shape shape = in[0].shape;
  for (int64_t d = in[0].rank() - 1; d >= 0; --d) {
    NPU_ASSIGN_OR_RETURN(const std::vector<Tap> taps,
                         AxisTaps(node.attrs(), shape[d], p.out[d], p.scales[d]));
    if (IsIdentity(taps, shape[d])) continue;
    ResizeAxis(x, shape, d, taps, y);
    shape[d] = p.out[d];
    std::swap(x, y);
  }
  std::copy(x.begin(), x.end(), out[0].values<float>().begin());
  return Status::Ok();
}

}  // namespace npu::compiler::interp
