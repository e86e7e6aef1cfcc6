// Networks built by hand from NPU layers (no graph, no lowering), for layers in forms lowering
// does not produce (ELTWISE with mul/max/min and broadcasts, LUT, convolutions with a table,
// matrix products of any batch mapping), and their direct evaluation: plain loops over the
// layers' definitions, written apart from hw/spec/semantics.cc (only the rounding rules of
// hw/spec/arith.h are shared).
//
//   HandNetwork n("chain");
//   int x = n.Input(7, 5, 3, /*zero_point=*/-4);
//   int y = n.Lut(x, {.table = ...});
//   n.Output(y);
//   CompileNetwork(config, n.network());
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/lower/network.h"

namespace npu::compiler::testing {

class HandNetwork {
 public:
  explicit HandNetwork(std::string name);

  // Each returns the new value's id.
  int Input(uint32_t h, uint32_t w, uint32_t c, int32_t zero_point = 0);
  // One convolution, or several parts over channel slices (a grouped convolution); the output
  // has the channels the parts write.
  int Conv(int x, std::vector<ConvPart> parts);
  // b < 0: the layer's constant b.
  int Eltwise(int a, int b, const EltwiseLayer& layer);
  int Lut(int x, const LutLayer& layer);
  // a and b hold their matrices where layer.a and layer.b say. The output is `out` (h, w, c), by
  // default layer.batches() consecutive M x N matrices.
  int MatMul(int a, int b, const MatMulLayer& layer, std::array<uint32_t, 3> out = {});
  void Output(int value);

  const Network& network() const { return net_; }

 private:
  int NewValue(uint32_t h, uint32_t w, uint32_t c, int32_t zero_point);
  int AddLayer(NetLayer layer, uint32_t h, uint32_t w, uint32_t c, int32_t zero_point);

  Network net_;
};

// The outputs of `net` for `inputs` (one per graph input), by direct evaluation of its
// convolutions, ELTWISE and LUT layers (pools are not evaluated here).
std::vector<std::vector<int8_t>> EvaluateNetwork(const Network& net,
                                                 const std::vector<std::vector<int8_t>>& inputs);

// Seeded int8 values over the whole range; one such buffer per input of `net`.
std::vector<int8_t> RandomBytes(uint64_t n, uint32_t seed);
std::vector<std::vector<int8_t>> RandomNetworkInputs(const Network& net, uint32_t seed);

// Layers with varied quantisation (zero points, multipliers of both signs, clamps) so that
// outputs spread over the int8 range. A constant b is seeded.
EltwiseLayer TestEltwise(spec::EltwiseOp op, spec::Broadcast broadcast, uint32_t h, uint32_t w,
                         uint32_t c, bool constant_b, uint32_t seed);
// A table of a smooth function (sigmoid, GELU, HardSwish or SiLU by seed) of the quantised input.
std::vector<int8_t> TestTable(uint32_t seed);
LutLayer TestLut(uint32_t h, uint32_t w, uint32_t c, uint32_t seed);
// A synthetic 3x3 same-padded convolution (ReLU), with a table if `table`.
ConvLayer TestConv(uint32_t h, uint32_t w, uint32_t in_c, uint32_t out_c, bool table,
                   uint32_t seed);

// An m x k times k x n product per entry of a_batch / b_batch (the dense a and b matrix each
// output matrix reads), with zero points, a multiplier that spreads the outputs over the int8
// range and, by seed, a ReLU-like clamp.
MatMulLayer TestMatMul(uint32_t m, uint32_t k, uint32_t n, const std::vector<uint32_t>& a_batch,
                       const std::vector<uint32_t>& b_batch, uint32_t seed);
// Attention's heads without transposes: q, k, v are [tokens][heads x dim] and so is the output;
// head h's matrices are its dim columns (q k^T reads k's rows as b transposed; scores v reads v).
// scores_layer: q k^T (tokens x tokens per head, consecutive); values_layer: scores v.
MatMulLayer HeadsScores(uint32_t tokens, uint32_t heads, uint32_t dim, uint32_t seed);
MatMulLayer HeadsValues(uint32_t tokens, uint32_t heads, uint32_t dim, uint32_t seed);

// x (12x10x8) and v (1x1x8) -> conv(x) * conv(v) per channel (squeeze-excite), max'ed with a
// one-channel conv(x) per pixel (spatial attention) -> conv with a table: broadcast b operands
// that are activations, on chip when the SRAM holds them.
Network BroadcastChain();

// One-layer networks: the layer on graph inputs (a, and b if it is an activation of its
// broadcast's shape), its result the graph output.
Network OneEltwise(const EltwiseLayer& layer);
Network OneLut(const LutLayer& layer);
Network OneConv(std::vector<ConvPart> parts);
// a and b graph inputs with as many matrices as the layer's batch indices name.
Network OneMatMul(const MatMulLayer& layer);

}  // namespace npu::compiler::testing
