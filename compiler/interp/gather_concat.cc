// Gather (ONNX: out = data[..., indices, ...] along `axis`, negative indices count from the end)
// and Concat (along `axis`). Any element type: they move bytes.
#include <cstring>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

// Elements before `axis` (outer) and after it (inner), in element units.
void SplitAt(const ir::Shape& s, int64_t axis, int64_t* outer, int64_t* inner) {
  *outer = 1, *inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d) {
    if (d < axis) *outer *= s[d];
    if (d > axis) *inner *= s[d];
  }
}

}  // namespace

StatusOr<Types> GatherRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 2));
  if (in[1].dtype != ir::DType::kInt64 && in[1].dtype != ir::DType::kInt32) {
    return InvalidArgument(
        fmt::format("indices are {}, expected i64 or i32", ir::DTypeName(in[1].dtype)));
  }
  if (in[0].rank() < 1) return InvalidArgument("data must have rank >= 1");
  NPU_ASSIGN_OR_RETURN(const int64_t axis,
                       NormalizeAxis(node.attrs().GetInt("axis", 0), in[0].rank()));
  ir::Shape shape(in[0].shape.begin(), in[0].shape.begin() + axis);
  shape.insert(shape.end(), in[1].shape.begin(), in[1].shape.end());
  shape.insert(shape.end(), in[0].shape.begin() + axis + 1, in[0].shape.end());
  return Types{{in[0].dtype, std::move(shape), ir::Layout::kNone}};
}

Status GatherKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const int64_t axis,
                       NormalizeAxis(node.attrs().GetInt("axis", 0), in[0].rank()));
  int64_t outer, inner;
  SplitAt(in[0].shape, axis, &outer, &inner);
  const int64_t axis_len = in[0].shape[axis];
  const size_t bytes = static_cast<size_t>(inner) * ir::DTypeBytes(in[0].dtype);
  const std::vector<int64_t> indices = IntValues(in[1]);
  uint8_t* dst = out[0].data.data();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t index : indices) {
      if (index < -axis_len || index >= axis_len) {
        return InvalidArgument(
            fmt::format("index {} is out of range [-{}, {})", index, axis_len, axis_len));
      }
      if (index < 0) index += axis_len;
      std::memcpy(dst, in[0].data + (o * axis_len + index) * bytes, bytes);
      dst += bytes;
    }
  }
  return Status::Ok();
}

StatusOr<Types> ConcatRule(const ir::Node& node, Inputs in) {
  if (in.empty()) return InvalidArgument("needs at least one input");
  NPU_TRY(ExpectInputCount(in, in.size(), in.size()));
  NPU_ASSIGN_OR_RETURN(const int64_t axis,
                       NormalizeAxis(node.attrs().GetInt("axis", 0), in[0].rank()));
  ir::Shape shape = in[0].shape;
  shape[axis] = 0;
  ir::Layout layout = in[0].layout;
  for (size_t i = 0; i < in.size(); ++i) {
    NPU_TRY(ExpectDType(in, i, in[0].dtype));
    bool same = in[i].rank() == in[0].rank();
    for (int64_t d = 0; same && d < in[0].rank(); ++d) {
      same = d == axis || in[i].shape[d] == in[0].shape[d];
    }
    if (!same) {
      return InvalidArgument(
          fmt::format("input {} has shape {}, which does not match {} except "
                      "along axis {}",
                      i, ir::ShapeText(in[i].shape), ir::ShapeText(in[0].shape), axis));
    }
    shape[axis] += in[i].shape[axis];
    if (in[i].layout != layout) layout = ir::Layout::kNone;
  }
  return Types{{in[0].dtype, std::move(shape), layout}};
}

Status ConcatKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const int64_t axis,
                       NormalizeAxis(node.attrs().GetInt("axis", 0), in[0].rank()));
  int64_t outer, inner;
  SplitAt(in[0].shape, axis, &outer, &inner);
  const size_t elem = ir::DTypeBytes(in[0].dtype);
  uint8_t* dst = out[0].data.data();
  for (int64_t o = 0; o < outer; ++o) {
    for (const TensorRef& t : in) {
      const size_t chunk = static_cast<size_t>(t.shape[axis] * inner) * elem;
      if (chunk > 0) std::memcpy(dst, t.data + o * chunk, chunk);
      dst += chunk;
    }
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
