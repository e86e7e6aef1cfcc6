// Q/DQ operand reading and constant evaluation.
#include "compiler/quantize/qdq_params.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace npu::compiler::quantize {
namespace {

// Index of the per-axis parameter for each element: (i / inner) % channels.
struct ChannelIndex {
  int64_t inner = 1, channels = 1;
  size_t operator()(int64_t i) const { return static_cast<size_t>((i / inner) % channels); }
};

StatusOr<ChannelIndex> IndexFor(const ir::Shape& shape, const QdqParams& p) {
  ChannelIndex c;
  if (p.scale.size() == 1) return c;
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  if (axis < 0 || axis >= rank || shape[axis] != static_cast<int64_t>(p.scale.size())) {
    return InvalidArgument(fmt::format("{} scales do not match axis {} of {}", p.scale.size(),
                                       p.axis, ir::ShapeText(shape)));
  }
  c.channels = shape[axis];
  for (int64_t d = axis + 1; d < rank; ++d) c.inner *= shape[d];
  return c;
}

}  // namespace

ir::QuantParams QdqParams::ToInt8() const {
  ir::QuantParams q;
  q.scale = scale;
  for (int32_t z : zero_point) q.zero_point.push_back(is_unsigned ? z - 128 : z);
  q.axis = scale.size() == 1 ? -1 : static_cast<int>(axis);
  return q;
}

StatusOr<std::vector<int32_t>> IntValues(const ir::Tensor& t) {
  switch (t.dtype()) {
    case ir::DType::kInt8: {
      const auto v = t.data<int8_t>();
      return std::vector<int32_t>(v.begin(), v.end());
    }
    case ir::DType::kUInt8: {
      const auto v = t.data<uint8_t>();
      return std::vector<int32_t>(v.begin(), v.end());
    }
    case ir::DType::kInt32: {
      const auto v = t.data<int32_t>();
      return std::vector<int32_t>(v.begin(), v.end());
    }
    default:
      return InvalidArgument(
          fmt::format("constant %{} is {}, not i8, u8 or i32", t.name(), ir::DTypeName(t.dtype())));
  }
}

StatusOr<QdqParams> ReadQdqParams(const ir::Node& node, size_t scale_index, size_t zp_index,
                                  int64_t axis) {
  const auto bad = [&](const std::string& what) {
    return InvalidArgument(
        fmt::format("node '{}' ({}): {}", node.name(), ir::OpName(node.kind()), what));
  };
  const ir::Tensor* s = node.input(scale_index);
  const ir::Tensor* z = node.input(zp_index);
  if (s == nullptr || !s->is_constant() || s->dtype() != ir::DType::kFloat32 ||
      s->data<float>().empty()) {
    return bad("the scale must be a float constant");
  }
  QdqParams p;
  p.scale.assign(s->data<float>().begin(), s->data<float>().end());
  p.axis = p.scale.size() == 1 ? -1 : axis;
  p.is_unsigned = z == nullptr || z->dtype() == ir::DType::kUInt8;
  if (z == nullptr) {
    p.zero_point.assign(p.scale.size(), 0);
  } else {
    if (!z->is_constant()) return bad("the zero point must be a constant");
    NPU_ASSIGN_OR_RETURN(p.zero_point, IntValues(*z));
    if (p.zero_point.size() != p.scale.size()) {
      return bad(fmt::format("{} scales but {} zero points", p.scale.size(), p.zero_point.size()));
    }
  }
  for (float v : p.scale) {
    if (!std::isfinite(v) || !(v > 0.0f)) return bad(fmt::format("scale {} is not positive", v));
  }
  return p;
}

StatusOr<std::vector<int32_t>> QuantizeConstant(const ir::Tensor& x, const QdqParams& p) {
  NPU_ASSIGN_OR_RETURN(const ChannelIndex ch, IndexFor(x.shape(), p));
  const float lo = p.is_unsigned ? 0.0f : -128.0f, hi = p.is_unsigned ? 255.0f : 127.0f;
  const auto v = x.data<float>();
  std::vector<int32_t> q(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const size_t c = ch(static_cast<int64_t>(i));
    const float r = std::nearbyint(v[i] / p.scale[c]) + static_cast<float>(p.zero_point[c]);
    q[i] = static_cast<int32_t>(std::clamp(r, lo, hi));
  }
  return q;
}

StatusOr<std::vector<float>> DequantizeValues(const std::vector<int32_t>& q, const ir::Shape& shape,
                                              const QdqParams& p) {
  NPU_ASSIGN_OR_RETURN(const ChannelIndex ch, IndexFor(shape, p));
  std::vector<float> v(q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    const size_t c = ch(static_cast<int64_t>(i));
    v[i] = static_cast<float>(q[i] - p.zero_point[c]) * p.scale[c];
  }
  return v;
}

}  // namespace npu::compiler::quantize
