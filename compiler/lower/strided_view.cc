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
  m.places.row_stride = uint64_t(v.strides[rank - 2]);
  m.col_stride = v.strides[rank - 1];
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
