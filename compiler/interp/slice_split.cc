// Slice (ONNX opset 10+: X, starts, ends[, axes[, steps]], values known at compile time) and
// Split (attributes axis, split; equal parts when split is absent), any element type.
// Slice clamps as ONNX does: negative starts/ends count from the end, then with a positive step
// start and end are clamped to [0, dim], with a negative one to [0, dim - 1] and [-1, dim - 1].
#include <algorithm>
#include <cstring>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

struct AxisSlice {
  int64_t start = 0, step = 1, count = 0;
};

StatusOr<std::vector<AxisSlice>> ResolveSlice(Inputs in) {
  NPU_TRY(ExpectValue(in, 1, "starts"));
  NPU_TRY(ExpectValue(in, 2, "ends"));
  const std::vector<int64_t> starts = IntValues(in[1]), ends = IntValues(in[2]);
  const int64_t rank = in[0].rank();
  std::vector<int64_t> axes, steps(starts.size(), 1);
  for (int64_t i = 0; i < static_cast<int64_t>(starts.size()); ++i) axes.push_back(i);
  if (in.size() > 3 && in[3].present()) {
    NPU_TRY(ExpectValue(in, 3, "axes"));
    axes = IntValues(in[3]);
  }
  if (in.size() > 4 && in[4].present()) {
    NPU_TRY(ExpectValue(in, 4, "steps"));
    steps = IntValues(in[4]);
  }
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size()) {
    return InvalidArgument(fmt::format("starts, ends, axes and steps have {}, {}, {} and {} values",
                                       starts.size(), ends.size(), axes.size(), steps.size()));
  }
  std::vector<AxisSlice> s(rank);
  std::vector<bool> seen(rank, false);
  for (int64_t d = 0; d < rank; ++d) s[d].count = in[0].shape[d];
  for (size_t i = 0; i < starts.size(); ++i) {
    NPU_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(axes[i], rank));
    if (seen[axis]) return InvalidArgument(fmt::format("axis {} repeats", axes[i]));
    seen[axis] = true;
    if (steps[i] == 0) return InvalidArgument("a step is 0");
    const int64_t dim = in[0].shape[axis], step = steps[i];
    int64_t b = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t e = ends[i] < 0 ? ends[i] + dim : ends[i];
    b = step > 0 ? std::clamp<int64_t>(b, 0, dim) : std::clamp<int64_t>(b, 0, dim - 1);
    e = step > 0 ? std::clamp<int64_t>(e, 0, dim) : std::clamp<int64_t>(e, -1, dim - 1);
    const int64_t span = step > 0 ? e - b : b - e, mag = step > 0 ? step : -step;
    s[axis] = {b, step, span <= 0 ? 0 : (span + mag - 1) / mag};
  }
  return s;
}

}  // namespace

StatusOr<Types> SliceRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 3, 5));
  NPU_ASSIGN_OR_RETURN(const std::vector<AxisSlice> s, ResolveSlice(in));
  ir::Shape shape;
  for (const AxisSlice& a : s) shape.push_back(a.count);
  return Types{{in[0].dtype, std::move(shape), in[0].layout}};  // same dims, same order
}

Status SliceKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const std::vector<AxisSlice> s, ResolveSlice(in));
  const int64_t rank = in[0].rank(), n = out[0].num_elements();
  const size_t elem = ir::DTypeBytes(in[0].dtype);
  std::vector<int64_t> stride(rank, 1), index(rank, 0);
  for (int64_t d = rank - 2; d >= 0; --d) stride[d] = stride[d + 1] * in[0].shape[d + 1];
  int64_t src = 0;
  for (int64_t d = 0; d < rank; ++d) src += s[d].start * stride[d];
  for (int64_t o = 0; o < n; ++o) {
    std::memcpy(out[0].data.data() + o * elem, in[0].data + src * elem, elem);
    for (int64_t d = rank - 1; d >= 0; --d) {
      src += s[d].step * stride[d];
      if (++index[d] < s[d].count) break;
      src -= s[d].step * stride[d] * s[d].count;
      index[d] = 0;
    }
  }
  return Status::Ok();
}

namespace {

StatusOr<std::vector<int64_t>> SplitSizes(const ir::Node& node, const TensorRef& x, int64_t axis) {
  const int64_t dim = x.shape[axis], parts = static_cast<int64_t>(node.num_outputs());
  std::vector<int64_t> sizes = node.attrs().GetInts("split");
  if (sizes.empty()) {
    if (parts == 0 || dim % parts != 0) {
      return InvalidArgument(
          fmt::format("dim {} of size {} does not split into {} equal parts", axis, dim, parts));
    }
    return std::vector<int64_t>(parts, dim / parts);
  }
  int64_t total = 0;
  for (int64_t v : sizes) total += v < 0 ? dim + 1 : v;
  if (static_cast<int64_t>(sizes.size()) != parts || total != dim) {
    return InvalidArgument(fmt::format("split {} does not cut dim {} of size {} into {} parts",
                                       ir::ShapeText(sizes), axis, dim, parts));
  }
  return sizes;
}

}  // namespace

StatusOr<Types> SplitRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 1));
  NPU_ASSIGN_OR_RETURN(const int64_t axis,
                       NormalizeAxis(node.attrs().GetInt("axis", 0), in[0].rank()));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> sizes, SplitSizes(node, in[0], axis));
  Types types;
  for (int64_t size : sizes) {
    ir::Shape shape = in[0].shape;
    shape[axis] = size;
    types.push_back({in[0].dtype, shape, in[0].layout});
  }
  return types;
}

Status SplitKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const int64_t axis,
                       NormalizeAxis(node.attrs().GetInt("axis", 0), in[0].rank()));
  int64_t outer = 1, inner = ir::DTypeBytes(in[0].dtype);
  for (int64_t d = 0; d < in[0].rank(); ++d) {
    if (d < axis) outer *= in[0].shape[d];
    if (d > axis) inner *= in[0].shape[d];
  }
  const uint8_t* src = in[0].data;
  for (int64_t o = 0; o < outer; ++o) {
    for (HostTensor& t : out) {
      const int64_t chunk = t.shape[axis] * inner;
      if (chunk > 0) std::memcpy(t.data.data() + o * chunk, src, chunk);
      src += chunk;
    }
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
