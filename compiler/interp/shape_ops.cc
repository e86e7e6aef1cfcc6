// Ops that only reinterpret a shape, whose values pass through unchanged: Flatten, Reshape,
// Squeeze, Unsqueeze, Identity; and Shape, which returns one. Their outputs lose the layout tag
// (the shape no longer is an activation's), unless the shape is unchanged.
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

TensorType Reshaped(const TensorRef& x, ir::Shape shape) {
  const ir::Layout layout = shape == x.shape ? x.layout : ir::Layout::kNone;
  return {x.dtype, std::move(shape), layout};
}

// Squeeze / Unsqueeze axes: the `axes` attribute, or input 1 (ONNX opset 13) if it is known.
StatusOr<std::vector<int64_t>> Axes(const ir::Node& node, Inputs in) {
  if (in.size() > 1 && in[1].present()) {
    NPU_TRY(ExpectValue(in, 1, "axes"));
    return IntValues(in[1]);
  }
  return node.attrs().GetInts("axes");
}

// Resolves ONNX Reshape's target: 0 copies the input dimension (unless allowzero), -1 takes
// what is left.
StatusOr<ir::Shape> ReshapeTarget(const ir::Shape& in, std::vector<int64_t> target,
                                  bool allow_zero) {
  int64_t known = 1, infer_at = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && !allow_zero) {
      if (i >= in.size())
        return InvalidArgument(fmt::format("0 at position {} has no input dim", i));
      target[i] = in[i];
    }
    if (target[i] == -1) {
      if (infer_at >= 0) return InvalidArgument("more than one -1 in the target shape");
      infer_at = static_cast<int64_t>(i);
    } else if (target[i] < 0) {
      return InvalidArgument(fmt::format("negative dimension {} in the target shape", target[i]));
    } else if (target[i] != 0 && known > std::numeric_limits<int64_t>::max() / target[i]) {
      return InvalidArgument(
          fmt::format("the target shape {} has more than 2^63 elements", ir::ShapeText(target)));
    } else {
      known *= target[i];
    }
  }
  const int64_t total = ir::NumElements(in);
  if (infer_at >= 0) {
    if (known == 0 || total % known != 0) {
      return InvalidArgument(fmt::format("cannot reshape {} ({} elements) to {}", ir::ShapeText(in),
                                         total, ir::ShapeText(target)));
    }
    target[infer_at] = total / known;
  } else if (known != total) {
    return InvalidArgument(fmt::format("cannot reshape {} ({} elements) to {} ({} elements)",
                                       ir::ShapeText(in), total, ir::ShapeText(target), known));
  }
  return target;
}

}  // namespace

StatusOr<Types> FlattenRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 1));
  const int64_t rank = in[0].rank();
  int64_t axis = node.attrs().GetInt("axis", 1);
  if (axis < -rank || axis > rank) {
    return InvalidArgument(fmt::format("axis {} is out of range for rank {}", axis, rank));
  }
  if (axis < 0) axis += rank;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) (d < axis ? outer : inner) *= in[0].shape[d];
  return Types{Reshaped(in[0], {outer, inner})};
}

StatusOr<Types> ReshapeRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 2));
  NPU_TRY(ExpectValue(in, 1, "shape"));
  if (in[1].rank() != 1) return InvalidArgument("the shape input must be 1-D");
  NPU_ASSIGN_OR_RETURN(ir::Shape shape, ReshapeTarget(in[0].shape, IntValues(in[1]),
                                                      node.attrs().GetInt("allowzero", 0) != 0));
  return Types{Reshaped(in[0], std::move(shape))};
}

StatusOr<Types> SqueezeRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 2));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, Axes(node, in));
  const int64_t rank = in[0].rank();
  std::set<int64_t> drop;
  for (int64_t a : axes) {
    NPU_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(a, rank));
    if (in[0].shape[axis] != 1) {
      return InvalidArgument(
          fmt::format("cannot squeeze axis {} of size {}", a, in[0].shape[axis]));
    }
    drop.insert(axis);
  }
  ir::Shape shape;
  for (int64_t d = 0; d < rank; ++d) {
    const bool squeezed = axes.empty() ? in[0].shape[d] == 1 : drop.count(d) > 0;
    if (!squeezed) shape.push_back(in[0].shape[d]);
  }
  return Types{Reshaped(in[0], std::move(shape))};
}

StatusOr<Types> UnsqueezeRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 2));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, Axes(node, in));
  const int64_t rank = in[0].rank() + static_cast<int64_t>(axes.size());
  std::set<int64_t> inserted;
  for (int64_t a : axes) {
    NPU_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(a, rank));
    if (!inserted.insert(axis).second) return InvalidArgument(fmt::format("axis {} repeats", a));
  }
  ir::Shape shape;
  for (int64_t d = 0, src = 0; d < rank; ++d) {
    shape.push_back(inserted.count(d) ? 1 : in[0].shape[src++]);
  }
  return Types{Reshaped(in[0], std::move(shape))};
}

Status CopyKernel(const ir::Node& node, Inputs in, Outputs out) {
  const size_t bytes = out[0].data.size();
  NPU_CHECK(bytes == static_cast<size_t>(in[0].num_elements()) * ir::DTypeBytes(in[0].dtype));
  if (bytes > 0) std::memcpy(out[0].data.data(), in[0].data, bytes);
  return Status::Ok();
}

StatusOr<Types> ShapeRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 1));
  const int64_t rank = in[0].rank();
  auto clamp = [rank](int64_t v) { return std::clamp(v < 0 ? v + rank : v, int64_t{0}, rank); };
  const int64_t start = clamp(node.attrs().GetInt("start", 0));
  const int64_t end = clamp(node.attrs().GetInt("end", rank));
  return Types{{ir::DType::kInt64, {std::max<int64_t>(0, end - start)}, ir::Layout::kNone}};
}

Status ShapeKernel(const ir::Node& node, Inputs in, Outputs out) {
  const int64_t rank = in[0].rank();
  int64_t start = node.attrs().GetInt("start", 0);
  start = std::clamp(start < 0 ? start + rank : start, int64_t{0}, rank);
  const std::span<int64_t> y = out[0].values<int64_t>();
  for (size_t i = 0; i < y.size(); ++i) y[i] = in[0].shape[start + i];
  return Status::Ok();
}

}  // namespace npu::compiler::interp
