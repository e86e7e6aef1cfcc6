// Builds quantised graphs (docs/quantized-ir.md) directly, with seeded int8 weights, int32
// biases and requantisation parameters, for testing lowering on shapes no built-in model has.
// Scales are chosen so that outputs spread over the int8 range (nothing saturates everywhere).
//
//   QuantGraphBuilder b("odd", 7);
//   ir::Tensor* x = b.Input("x", 13, 11, 5);
//   x = b.Conv(x, "c", {.out_c = 9, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
//   ir::Graph g = b.Finish({x});
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace npu::compiler::testing {

struct ConvSpec {
  int64_t out_c = 1, kh = 1, kw = 1;
  int64_t stride_h = 1, stride_w = 1;
  std::array<int64_t, 4> pads = {0, 0, 0, 0};  // top, left, bottom, right
  int64_t dilation_h = 1, dilation_w = 1;
  int64_t group = 1;
  std::string activation = "none";  // "relu", "relu6"
};

// A depthwise k x k convolution of `channels`, stride 1, dilated by `dilation` and padded to
// keep the size.
ConvSpec DepthwiseSpec(int64_t channels, int64_t k, int64_t dilation = 1);

struct PoolSpec {
  int64_t kh = 2, kw = 2, stride_h = 2, stride_w = 2;
  std::array<int64_t, 4> pads = {0, 0, 0, 0};
  bool count_include_pad = false;
};

// One axis's resize taps as the quantiser makes them (compiler/quantize/emit_data.cc) from the
// float op's sampling (`mode` "nearest" or "linear", an ONNX coordinate transformation): per
// output position i0, i1 and i1's weight rounded to 1/1024ths, flat.
std::vector<int64_t> ResizeTapsOf(const std::string& mode, const std::string& transform, int64_t in,
                                  int64_t out);

class QuantGraphBuilder {
 public:
  QuantGraphBuilder(std::string name, uint32_t seed) : g_(std::move(name)), rng_(seed) {}

  ir::Tensor* Input(const std::string& name, int64_t h, int64_t w, int64_t c);
  ir::Tensor* VectorInput(const std::string& name, int64_t k);  // [1, K]
  ir::Tensor* Conv(ir::Tensor* x, const std::string& name, const ConvSpec& spec);
  // x [.., K] times weights [n, K]: a vector's fully connected layer, or over an image [1, H, W,
  // K] a Linear layer on each pixel's channels (convnext's).
  ir::Tensor* Gemm(ir::Tensor* x, const std::string& name, int64_t n, bool relu = false);
  // Layer normalisation of each pixel's channels (convnext's), seeded weights and bias.
  ir::Tensor* LayerNorm(ir::Tensor* x, const std::string& name);
  ir::Tensor* MaxPool(ir::Tensor* x, const std::string& name, const PoolSpec& spec);
  ir::Tensor* AvgPool(ir::Tensor* x, const std::string& name, const PoolSpec& spec);
  ir::Tensor* GlobalAvgPool(ir::Tensor* x, const std::string& name);
  ir::Tensor* Add(ir::Tensor* a, ir::Tensor* b, const std::string& name, bool relu = false);
  // A lookup table (a SiLU- or HardSwish-like activation the quantiser made a table of): a
  // seeded monotone table, quantised like its input.
  ir::Tensor* Lut(ir::Tensor* x, const std::string& name);
  // The elementwise product of two activations, b broadcast where its dims are 1 (a squeeze-
  // and-excitation's per-channel scale [1, 1, 1, C]).
  ir::Tensor* Mul(ir::Tensor* a, ir::Tensor* b, const std::string& name);
  // The product of two activations [.., M, K] x [.., K, N], batch dims broadcast.
  ir::Tensor* MatMul(ir::Tensor* a, ir::Tensor* b, const std::string& name);
  // The concatenation of images along channels. A concatenation's inputs share its quantisation:
  // the parts must share a scale, and each takes the first's zero point (so each must come from
  // a layer without activation, whose clamp is int8's whole range whatever its zero point).
  ir::Tensor* Concat(const std::vector<ir::Tensor*>& parts, const std::string& name);
  ir::Tensor* Flatten(ir::Tensor* x, const std::string& name);
  ir::Tensor* Reshape(ir::Tensor* x, const std::string& name, ir::Shape shape);
  // A resize to out_h x out_w by taps (3 ints per output row / column: i0, i1, the weight of i1
  // in 1/1024), quantised like its input.
  ir::Tensor* Resize(ir::Tensor* x, const std::string& name, int64_t out_h, int64_t out_w,
                     std::vector<int64_t> h_taps, std::vector<int64_t> w_taps);
  // Any node (e.g. an op the NPU does not run), output shaped and quantised like its input.
  ir::Tensor* Other(ir::OpKind kind, ir::Tensor* x, const std::string& name);

  ir::Graph Finish(const std::vector<ir::Tensor*>& outputs);

 private:
  ir::Tensor* Out(ir::Node* n, ir::Shape shape, float scale, int32_t zp);
  // A product of a and b of shape y (a matrix product, an elementwise one) requantised by `real`.
  ir::Tensor* Product(ir::OpKind kind, ir::Tensor* a, ir::Tensor* b, const std::string& name,
                      double real, ir::Shape y);
  void SetClamp(ir::Attributes& a, const std::string& activation, float scale, int32_t zp);
  // An average pool's multiplier/shift for s_x / s_y and its clamp; returns the output zero point.
  int32_t SetAverageRequant(ir::Attributes& a, float s_x, float s_y);
  int32_t Int(int32_t lo, int32_t hi);
  double Unit();

  ir::Graph g_;
  std::mt19937 rng_;
};

// x (6 x 5 x 8) -> 1x1 `a` to 16 -> 1x1 `b` to 16 -> `sum` = a + b: a's buffer is written once
// and read twice.
ir::Graph ResidualOfTwoConvolutions();

// x (24 x 16 x in_c) -> 3x3 conv_a to out_c -> 3x3 conv_b to out_c (both padded, ReLU) -> 3x3
// max pool `pool` at stride 2: a stem whose two pairs row strips split as one chain.
ir::Graph TwoConvolutionsAndAPool(const std::string& name, uint32_t seed, int64_t in_c,
                                  int64_t out_c);

// x (20 x 14 x 8) -> 1x1 `expand` to 48, a table -> 3x3 `depthwise` (dilated by `dilation`,
// padded), a table -> squeeze and excitation (global pool, 1x1 to 12 with ReLU, 1x1 back to 48,
// a table) -> `scale` (the depthwise's output times the excitation) -> 1x1 `project` to 8:
// mobilenet_v3's and lraspp's blocks.
ir::Graph SqueezeExcitationBlock(const std::string& name, uint32_t seed, int64_t dilation = 1);

}  // namespace npu::compiler::testing
