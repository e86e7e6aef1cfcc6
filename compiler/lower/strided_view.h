// Activations seen through slices, reshapes and transposes the NPU reads or writes through (a
// matrix product's operands: attention's q, k, v split off one projection, its heads and K^T)
// instead of running them on the control core. A view is the byte address of every element of
// an IR shape in a value's buffer, as an offset and one stride per dimension.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/layer/matmul_layer.h"
#include "compiler/lower/network.h"

namespace npu::compiler {

// Element i of `shape` is at byte offset + sum over d of i[d] * strides[d] of the buffer of
// value `value`.
struct StridedView {
  int value = -1;
  ir::Shape shape;
  std::vector<int64_t> strides;
  int64_t offset = 0;
};

// Value v as the IR tensor of `shape` it holds: its rows of pixels, each of its channels (at its
// channel offset in a buffer of channel slices).
StridedView ViewOf(const Network& net, int v, const ir::Shape& shape);

// What ONNX Transpose(perm) of `in` is: output dim d is input dim perm[d].
StridedView Transposed(const StridedView& in, const std::vector<int64_t>& perm);
// What the quantised Slice (y[i] = x[starts + i * steps] per dim) of `in` is, `shape` its output.
StridedView Sliced(const StridedView& in, const std::vector<int64_t>& starts,
                   const std::vector<int64_t>& steps, const ir::Shape& shape);
// What a reshape of `in` to `shape` is, if its strides can say it (the dims it merges are
// contiguous with each other); nothing if it would have to move bytes.
std::optional<StridedView> Reshaped(const StridedView& in, const ir::Shape& shape);
// The view `out` must have for Transposed(out, perm) to be `transposed`: the matrix product
// that writes a transpose's input straight into the transpose's output.
StridedView Untransposed(const StridedView& transposed, const std::vector<int64_t>& perm);

// The matrices of a [batch..., rows, cols] view for output batch dims `batch` (broadcast), and
// the strides of its two matrix dims (a dim of size 1 counts as contiguous).
struct ViewMatrices {
  MatrixPlaces places;  // offsets per output batch index; row_stride = the rows' stride
  int64_t col_stride = 0;
};
ViewMatrices MatricesOf(const StridedView& view, const ir::Shape& batch);

}  // namespace npu::compiler
