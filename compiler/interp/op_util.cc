// Argument checks, activation geometry and window resolution shared by the ops.
#include "compiler/interp/op_util.h"

#include <algorithm>

namespace npu::compiler::interp {

Status ExpectInputCount(Inputs in, size_t min, size_t max) {
  if (in.size() < min || in.size() > max) {
    return InvalidArgument(min == max
                               ? fmt::format("takes {} inputs, has {}", min, in.size())
                               : fmt::format("takes {} to {} inputs, has {}", min, max, in.size()));
  }
  for (size_t i = 0; i < min; ++i) {
    if (!in[i].present()) return InvalidArgument(fmt::format("input {} is missing", i));
  }
  return Status::Ok();
}

Status ExpectDType(Inputs in, size_t i, ir::DType dtype) {
  if (i >= in.size() || !in[i].present()) {
    return InvalidArgument(fmt::format("input {} is missing", i));
  }
  if (in[i].dtype != dtype) {
    return InvalidArgument(fmt::format("input {} is {}, expected {}", i, ir::DTypeName(in[i].dtype),
                                       ir::DTypeName(dtype)));
  }
  return Status::Ok();
}

Status ExpectRank(Inputs in, size_t i, int64_t rank) {
  if (i >= in.size() || !in[i].present()) {
    return InvalidArgument(fmt::format("input {} is missing", i));
  }
  if (in[i].rank() != rank) {
    return InvalidArgument(fmt::format("input {} has shape {}, expected rank {}", i,
                                       ir::ShapeText(in[i].shape), rank));
  }
  return Status::Ok();
}

Status ExpectValue(Inputs in, size_t i, const char* what) {
  if (i >= in.size() || !in[i].present()) {
    return InvalidArgument(fmt::format("input {} ({}) is missing", i, what));
  }
  if (!in[i].has_value()) {
    return InvalidArgument(fmt::format(
        "input {} ({}) must be a constant or computable from shapes; it is not", i, what));
  }
  if (in[i].dtype != ir::DType::kInt64 && in[i].dtype != ir::DType::kInt32) {
    return InvalidArgument(
        fmt::format("input {} ({}) is {}, expected i64", i, what, ir::DTypeName(in[i].dtype)));
  }
  return Status::Ok();
}

StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return InvalidArgument(fmt::format("axis {} is out of range for rank {}", axis, rank));
  }
  return axis < 0 ? axis + rank : axis;
}

StatusOr<ir::Shape> BroadcastShape(const ir::Shape& a, const ir::Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  ir::Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return InvalidArgument(
          fmt::format("shapes {} and {} do not broadcast", ir::ShapeText(a), ir::ShapeText(b)));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> IntValues(const TensorRef& t) {
  if (t.dtype == ir::DType::kInt32) {
    const std::span<const int32_t> v = t.values<int32_t>();
    return {v.begin(), v.end()};
  }
  const std::span<const int64_t> v = t.values<int64_t>();
  return {v.begin(), v.end()};
}

Act4D ActDims(const TensorRef& t) {
  NPU_CHECK(t.rank() == 4);
  const ir::Shape& s = t.shape;
  if (t.layout == ir::Layout::kNHWC) return {s[0], s[3], s[1], s[2], true};
  return {s[0], s[1], s[2], s[3], false};
}

ir::Layout ActLayout(const TensorRef& t) {
  return t.layout == ir::Layout::kNHWC ? ir::Layout::kNHWC : ir::Layout::kNCHW;
}

ir::Shape ActShape(int64_t n, int64_t c, int64_t h, int64_t w, bool nhwc) {
  return nhwc ? ir::Shape{n, h, w, c} : ir::Shape{n, c, h, w};
}

namespace {

// One spatial dimension's output size; pads may be rewritten for auto_pad.
StatusOr<int64_t> OutputSize(const std::string& auto_pad, int64_t in, int64_t k, int64_t s,
                             int64_t d, bool ceil_mode, int64_t& pad_begin, int64_t& pad_end) {
  const int64_t extent = (k - 1) * d + 1;
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    const int64_t out = (in + s - 1) / s;
    const int64_t total = std::max<int64_t>(0, (out - 1) * s + extent - in);
    pad_begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    pad_end = total - pad_begin;
    return out;
  }
  if (auto_pad == "VALID") pad_begin = pad_end = 0;
  const int64_t span = in + pad_begin + pad_end - extent;
  if (span < 0) {
    return InvalidArgument(fmt::format("window of extent {} does not fit input size {} + pads {}",
                                       extent, in, pad_begin + pad_end));
  }
  int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  // ceil_mode: the last window must start inside the input or the leading pad (PyTorch, ONNX
  // opset 19 reference); otherwise it would cover only padding.
  if (ceil_mode && (out - 1) * s >= in + pad_begin) --out;
  return out;
}

}  // namespace

Status CheckWindowValues(const std::string& name, const std::vector<int64_t>& values) {
  for (int64_t v : values) {
    if (v > kMaxWindowValue) {
      return InvalidArgument(fmt::format("{} {}: a value above {} is not supported", name,
                                         ir::ShapeText(values), kMaxWindowValue));
    }
  }
  return Status::Ok();
}

StatusOr<Window2D> ResolveWindow(const ir::Attributes& attrs, int64_t in_h, int64_t in_w,
                                 int64_t kh, int64_t kw, bool ceil_mode) {
  Window2D w;
  w.in_h = in_h, w.in_w = in_w, w.kh = kh, w.kw = kw;
  const std::vector<int64_t> strides = attrs.GetInts("strides", {1, 1});
  const std::vector<int64_t> dilations = attrs.GetInts("dilations", {1, 1});
  const std::vector<int64_t> pads = attrs.GetInts("pads", {0, 0, 0, 0});
  if (strides.size() != 2 || dilations.size() != 2 || pads.size() != 4) {
    return InvalidArgument("strides and dilations need 2 values and pads 4 (2-D windows only)");
  }
  NPU_TRY(CheckWindowValues("kernel", {kh, kw}));
  NPU_TRY(CheckWindowValues("strides", strides));
  NPU_TRY(CheckWindowValues("dilations", dilations));
  NPU_TRY(CheckWindowValues("pads", pads));
  w.sh = strides[0], w.sw = strides[1], w.dh = dilations[0], w.dw = dilations[1];
  w.pad_t = pads[0], w.pad_l = pads[1], w.pad_b = pads[2], w.pad_r = pads[3];
  if (kh < 1 || kw < 1 || w.sh < 1 || w.sw < 1 || w.dh < 1 || w.dw < 1) {
    return InvalidArgument(fmt::format("kernel {}x{}, strides and dilations must be >= 1", kh, kw));
  }
  if (*std::min_element(pads.begin(), pads.end()) < 0) {
    return InvalidArgument(fmt::format("pads {} must be >= 0", ir::ShapeText(pads)));
  }
  const std::string auto_pad = attrs.GetString("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" &&
      auto_pad != "SAME_LOWER") {
    return InvalidArgument(fmt::format("auto_pad \"{}\" is not an ONNX value", auto_pad));
  }
  NPU_ASSIGN_OR_RETURN(w.out_h,
                       OutputSize(auto_pad, in_h, kh, w.sh, w.dh, ceil_mode, w.pad_t, w.pad_b));
  NPU_ASSIGN_OR_RETURN(w.out_w,
                       OutputSize(auto_pad, in_w, kw, w.sw, w.dw, ceil_mode, w.pad_l, w.pad_r));
  return w;
}

ir::Attributes WidenAttributes1D(const ir::Attributes& attrs) {
  ir::Attributes wide = attrs;
  for (const char* name : {"kernel_shape", "strides", "dilations", "output_padding"}) {
    const std::vector<int64_t> v = attrs.GetInts(name);
    if (v.size() == 1) wide.Set(name, std::vector<int64_t>{1, v[0]});
  }
  const std::vector<int64_t> pads = attrs.GetInts("pads");
  if (pads.size() == 2) wide.Set("pads", std::vector<int64_t>{0, pads[0], 0, pads[1]});
  return wide;
}

TensorRef Widen1D(const TensorRef& t) {
  TensorRef wide = t;
  if (t.rank() == 3) wide.shape = {t.shape[0], t.shape[1], 1, t.shape[2]};
  return wide;
}

TensorType Narrow1D(TensorType t) {
  NPU_CHECK(t.shape.size() == 4 && t.shape[2] == 1);
  t.shape.erase(t.shape.begin() + 2);
  t.layout = ir::Layout::kNone;
  return t;
}

StatusOr<Activation> ActivationOf(const ir::Node& node) {
  const std::string a = node.attrs().GetString("activation", "none");
  if (a == "none") return Activation::kNone;
  if (a == "relu") return Activation::kRelu;
  if (a == "relu6") return Activation::kRelu6;
  return InvalidArgument(fmt::format("activation \"{}\" is not none, relu or relu6", a));
}

void ApplyActivation(Activation act, std::span<float> values) {
  if (act == Activation::kRelu) {
    for (float& v : values) v = std::max(v, 0.0f);
  } else if (act == Activation::kRelu6) {
    for (float& v : values) v = std::min(std::max(v, 0.0f), 6.0f);
  }
}

}  // namespace npu::compiler::interp
