// One quantised matrix product of two activations (the IR's matmul, docs/quantized-ir.md): for
// every batch index i of the output,
//   y[i] (M x N) = Requantize(sum over k of (a[i] - z_a)(b[i] - z_b), 0, multiplier, shift, z_y,
//                             clamp),
// a[i] being an M x K and b[i] a K x N matrix. Attention's Q x K^T and softmax(...) x V, batched
// over heads. Where each matrix is in its value's buffer is explicit (MatrixPlaces): batch dims
// broadcast (several batch indices read the same a or b), and the slices, reshapes and
// transposes around a product (q, k, v sliced off one projection, split into heads, K^T) are
// read through instead of being run (compiler/lower/lower_views.cc).
//
// On the NPU the product is the batched 1x1 convolution AsConv(), one batch per output batch
// index: a's M x K matrix is a 1 x M x K input region, b's matrix the weights, LOADed from b's
// buffer block by block (CONV's weights_kn reads a K x N block as it is; an N x K one, b
// transposed, is CONV's usual [out_c][in_c] layout) instead of packed constants; CONV subtracts
// both zero points, ACT adds a bias of 0 and requantises every channel alike. The batches share
// one tiling and one set of buffers, so one batch's loads overlap the previous one's compute.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// The matrices of one operand in its value's buffer: output batch index i's at byte offset[i]
// from the buffer's start, rows row_stride bytes apart, each row's elements contiguous. Batch
// indices that share a matrix (a broadcast) have the same offset.
struct MatrixPlaces {
  std::vector<uint64_t> offset;
  uint64_t row_stride = 0;
  bool operator==(const MatrixPlaces&) const = default;
};
// Matrix index[i] of consecutive dense rows x cols matrices, for each i.
MatrixPlaces DenseMatrices(const std::vector<uint32_t>& index, uint32_t rows, uint32_t cols);

struct MatMulLayer {
  std::string name;
  uint32_t m = 1, k = 1, n = 1;
  // a: M rows of K; b: K rows of N, or with b_transposed N rows of K; y: M rows of N.
  MatrixPlaces a = DenseMatrices({0}, 1, 1), b = DenseMatrices({0}, 1, 1),
               y = DenseMatrices({0}, 1, 1);
  bool b_transposed = false;

  float a_scale = 1.0f, b_scale = 1.0f, output_scale = 1.0f;
  int32_t a_zero_point = 0, b_zero_point = 0, output_zero_point = 0;
  int32_t multiplier = 1 << 30;  // with shift: a_scale * b_scale / output_scale
  int32_t shift = 31;
  int32_t clamp_min = -128, clamp_max = 127;

  uint32_t batches() const { return static_cast<uint32_t>(y.offset.size()); }
  uint64_t Macs() const { return uint64_t{batches()} * m * n * k; }
  // CONV reads a in place (an on-chip a) only if its rows are dense.
  bool a_rows_dense() const { return a.row_stride == k; }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
  // The product as a convolution of batches() batches, each a 1 x m x k input, n output
  // channels, weights from the activation b (ConvLayer::activation_weights), bias 0, the
  // multiplier and shift on every channel.
  ConvLayer AsConv() const;
};

// The shape (every dimension positive, K at most kMaxActivationReduction, N at most 65535), one
// a and b offset per output batch index, rows no shorter than their elements, the quantisation;
// the error names the layer and the field.
Status CheckMatMulLayer(const MatMulLayer& layer);

}  // namespace npu::compiler
