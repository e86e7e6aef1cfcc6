// Strided views of activations.
#include "compiler/lower/strided_view.h"

#include "hw/spec/status.h"

namespace npu::compiler {

StridedView ViewOf(const Network& net, int v, const ir::Shape& shape) {
  // HwcOf: the last dim is the channels, the one before it the width, the others the height.
  const ActivationValue& value = net.value(v);
  StridedView view{v, shape, std::vector<int64_t>(shape.size(), 0), value.channel_offset};
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    view.strides[d] = stride;
    stride *= d + 1 == shape.size() ? int64_t{net.PixelStride(v)} : shape[d];
  }
  return view;
}

StridedView Transposed(const StridedView& in, const std::vector<int64_t>& perm) {
  NPU_CHECK(perm.size() == in.shape.size());
  StridedView out = in;
  for (size_t d = 0; d < perm.size(); ++d) {
    out.shape[d] = in.shape[perm[d]];
    out.strides[d] = in.strides[perm[d]];
  }
  return out;
}

StridedView Sliced(const StridedView& in, const std::vector<int64_t>& starts,
                   const std::vector<int64_t>& steps, const ir::Shape& shape) {
  NPU_CHECK(starts.size() == in.shape.size() && steps.size() == in.shape.size());
  StridedView out = in;
  out.shape = shape;
  for (size_t d = 0; d < shape.size(); ++d) {
    out.offset += starts[d] * in.strides[d];
    out.strides[d] = in.strides[d] * steps[d];
  }
  return out;
}

std::optional<StridedView> Reshaped(const StridedView& in, const ir::Shape& shape) {
  // 1. The dims that matter (size-1 dims have no stride to keep).
  std::vector<int64_t> dims, strides;
  for (size_t d = 0; d < in.shape.size(); ++d) {
    if (in.shape[d] != 1) dims.push_back(in.shape[d]), strides.push_back(in.strides[d]);
  }
  StridedView out{in.value, shape, std::vector<int64_t>(shape.size(), 0), in.offset};
  // 2. Groups of new dims whose product is a group of old ones; the old group must be
  //    contiguous (each dim's stride its inner neighbour's times its size); the new dims split
  //    its innermost stride.
  size_t i = 0, j = 0;
  while (j < shape.size() && i < dims.size()) {
    if (shape[j] == 1) {
      ++j;
      continue;
    }
    size_t i2 = i, j2 = j;
    int64_t old_size = dims[i], new_size = shape[j];
    while (old_size != new_size) {
      if (new_size < old_size && j2 + 1 < shape.size()) {
        new_size *= shape[++j2];
      } else if (old_size < new_size && i2 + 1 < dims.size()) {
        old_size *= dims[++i2];
      } else {
        return std::nullopt;
      }
    }
    for (size_t k = i; k < i2; ++k) {
      if (strides[k] != strides[k + 1] * dims[k + 1]) return std::nullopt;
    }
    int64_t stride = strides[i2];
    for (size_t k = j2 + 1; k-- > j;) out.strides[k] = stride, stride *= shape[k];
    i = i2 + 1, j = j2 + 1;
  }
  if (i != dims.size()) return std::nullopt;
  // 3. Size-1 dims: as if contiguous with their inner neighbour.
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] == 1)
      out.strides[k] = k + 1 < shape.size() ? out.strides[k + 1] * shape[k + 1] : 1;
  }
  return out;
}

StridedView Untransposed(const StridedView& transposed, const std::vector<int64_t>& perm) {
  NPU_CHECK(perm.size() == transposed.shape.size());
  StridedView in = transposed;
  for (size_t d = 0; d < perm.size(); ++d) {
    in.shape[perm[d]] = transposed.shape[d];
    in.strides[perm[d]] = transposed.strides[d];
  }
  return in;
}

ViewMatrices MatricesOf(const StridedView& v, const ir::Shape& batch) {
  const size_t rank = v.shape.size(), lead = batch.size() - (rank - 2);
  ViewMatrices m;
  m.col_stride = v.shape[rank - 1] == 1 ? 1 : v.strides[rank - 1];
  m.places.row_stride = v.shape[rank - 2] == 1 ? uint64_t(v.shape[rank - 1] * m.col_stride)
                                               : uint64_t(v.strides[rank - 2]);
  std::vector<int64_t> pos(batch.size(), 0);
  for (int64_t i = 0; i < ir::NumElements(batch); ++i) {
    int64_t at = v.offset;
    for (size_t d = lead; d < batch.size(); ++d) {
      if (v.shape[d - lead] != 1) at += pos[d] * v.strides[d - lead];
    }
    m.places.offset.push_back(uint64_t(at));
    for (size_t d = batch.size(); d-- > 0;) {  // next position, row-major
      if (++pos[d] < batch[d]) break;
      pos[d] = 0;
    }
  }
  return m;
}

}  // namespace npu::compiler
