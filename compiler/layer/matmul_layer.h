// One quantised matrix product of two activations (the IR's matmul, docs/quantized-ir.md): for
// every batch index i of the output,
//   y[i] (M x N) = Requantize(sum over k of (a[a_batch[i]] - z_a)(b[b_batch[i]] - z_b), 0,
//                             multiplier, shift, z_y, clamp),
// a[j] being M x K and b[j] K x N, row-major; the batch dims broadcast as the IR allows, so
// several outputs may read the same a or b. Attention's Q x K^T and softmax(...) x V, batched
// over heads.
//
// On the NPU the product is the batched 1x1 convolution AsConv(), one batch per output batch
// index: a's M x K matrix is a 1 x M x K input region, b's K x N matrix the weights, LOADed from
// b's buffer block by block (CONV's weights_kn reads them as they are) instead of packed
// constants; CONV subtracts both zero points, ACT adds a bias of 0 and requantises every channel
// alike. The batches share one tiling and one set of buffers, so one batch's loads overlap the
// previous one's compute.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct MatMulLayer {
  std::string name;
  uint32_t m = 1, k = 1, n = 1;
  // Per output batch index: which matrix of a (of b) it reads, in a's (b's) batch order.
  std::vector<uint32_t> a_batch = {0}, b_batch = {0};

  float a_scale = 1.0f, b_scale = 1.0f, output_scale = 1.0f;
  int32_t a_zero_point = 0, b_zero_point = 0, output_zero_point = 0;
  int32_t multiplier = 1 << 30;  // with shift: a_scale * b_scale / output_scale
  int32_t shift = 31;
  int32_t clamp_min = -128, clamp_max = 127;

  uint32_t batches() const { return static_cast<uint32_t>(a_batch.size()); }
  uint64_t Macs() const { return uint64_t{batches()} * m * n * k; }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
  // The product as a convolution of batches() batches, each a 1 x m x k input, n output
  // channels, weights from the activation b (ConvLayer::activation_weights), bias 0, the
  // multiplier and shift on every channel.
  ConvLayer AsConv() const;
};

// The shape (every dimension positive, K at most kMaxActivationReduction, N at most 65535), one
// b batch per a batch, the quantisation; the error names the layer and the field.
Status CheckMatMulLayer(const MatMulLayer& layer);

}  // namespace npu::compiler
