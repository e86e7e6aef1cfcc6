// Hand-built networks and their direct evaluation.
#include "tests/network/hand_network.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "compiler/layer/lut_table.h"
#include "compiler/quant/quant_math.h"
#include "compiler/reference/reference_conv.h"
#include "hw/spec/arith.h"
#include "hw/spec/status.h"
#include "workloads/synthetic_conv.h"

namespace npu::compiler::testing {

HandNetwork::HandNetwork(std::string name) { net_.name = std::move(name); }

int HandNetwork::NewValue(uint32_t h, uint32_t w, uint32_t c, int32_t zero_point) {
  ActivationValue v;
  v.name = fmt::format("v{}", net_.values.size());
  v.shape = {1, h, w, c};
  v.h = h, v.w = w, v.c = c;
  v.zero_point = zero_point;
  v.buffer = static_cast<int>(net_.buffers.size());
  net_.buffers.push_back({v.bytes()});
  net_.values.push_back(v);
  return static_cast<int>(net_.values.size()) - 1;
}

int HandNetwork::AddLayer(NetLayer layer, uint32_t h, uint32_t w, uint32_t c, int32_t zero_point) {
  layer.name = fmt::format("layer{}", net_.layers.size());
  layer.output = NewValue(h, w, c, zero_point);
  net_.layers.push_back(std::move(layer));
  return net_.layers.back().output;
}

int HandNetwork::Input(uint32_t h, uint32_t w, uint32_t c, int32_t zero_point) {
  const int v = NewValue(h, w, c, zero_point);
  net_.buffers[net_.values[v].buffer].graph_input = true;
  net_.inputs.push_back(v);
  return v;
}

int HandNetwork::Conv(int x, std::vector<ConvPart> parts) {
  const ConvLayer& first = parts.front().conv;
  uint32_t out_c = 0;
  for (const ConvPart& p : parts) out_c = std::max(out_c, p.out_channel_offset + p.conv.out_c);
  NetLayer layer;
  layer.op = first.OpName();
  layer.inputs = {x};
  const uint32_t h = first.OutH(), w = first.OutW();
  const int32_t zp = first.output_zero_point;
  layer.work = std::move(parts);
  return AddLayer(std::move(layer), h, w, out_c, zp);
}

int HandNetwork::Eltwise(int a, int b, const EltwiseLayer& e) {
  NetLayer layer;
  layer.op = e.OpName();
  layer.inputs = {a};
  if (b >= 0) layer.inputs.push_back(b);
  layer.work = e;
  return AddLayer(std::move(layer), e.h, e.w, e.c, e.output_zero_point);
}

int HandNetwork::Lut(int x, const LutLayer& l) {
  NetLayer layer;
  layer.op = "lut";
  layer.inputs = {x};
  layer.work = l;
  return AddLayer(std::move(layer), l.h, l.w, l.c, 0);
}

int HandNetwork::MatMul(int a, int b, const MatMulLayer& m, std::array<uint32_t, 3> out) {
  NetLayer layer;
  layer.op = "matmul";
  layer.inputs = {a, b};
  layer.work = m;
  if (out[0] == 0) out = {m.batches(), m.m, m.n};
  return AddLayer(std::move(layer), out[0], out[1], out[2], m.output_zero_point);
}

void HandNetwork::Output(int value) {
  net_.buffers[net_.values[value].buffer].graph_output = true;
  net_.outputs.push_back(value);
}

namespace {

using Tensor = std::vector<int8_t>;

// Every part on its channel slice of x, into its channel slice of the output.
Tensor EvalConv(const std::vector<ConvPart>& parts, const Tensor& x, uint32_t in_c,
                uint32_t out_c) {
  const ConvLayer& first = parts.front().conv;
  const uint64_t pixels_in = uint64_t{first.in_h} * first.in_w;
  const uint64_t pixels_out = uint64_t{first.OutH()} * first.OutW();
  Tensor y(pixels_out * out_c);
  for (const ConvPart& p : parts) {
    Tensor slice(pixels_in * p.conv.in_c);
    for (uint64_t px = 0; px < pixels_in; ++px) {
      for (uint32_t ch = 0; ch < p.conv.in_c; ++ch) {
        slice[px * p.conv.in_c + ch] = x[px * in_c + p.in_channel_offset + ch];
      }
    }
    StatusOr<Tensor> part = ReferenceConv(p.conv, slice);
    NPU_CHECK(part.ok());
    for (uint64_t px = 0; px < pixels_out; ++px) {
      for (uint32_t ch = 0; ch < p.conv.out_c; ++ch) {
        y[px * out_c + p.out_channel_offset + ch] = (*part)[px * p.conv.out_c + ch];
      }
    }
  }
  return y;
}

// y = out_zp + f(A, B), clamped (docs/isa.md, eltwise), element by element.
Tensor EvalEltwise(const EltwiseLayer& e, const Tensor& a, const Tensor& b) {
  Tensor y(e.Elements());
  const int64_t lo = std::max(e.clamp_min, -128), hi = std::min(e.clamp_max, 127);
  for (uint64_t i = 0; i < y.size(); ++i) {
    const uint64_t pixel = i / e.c, channel = i % e.c;
    const uint64_t j = e.broadcast == spec::Broadcast::kNone      ? i
                       : e.broadcast == spec::Broadcast::kChannel ? channel
                       : e.broadcast == spec::Broadcast::kPixel   ? pixel
                                                                  : 0;
    const int64_t va = int64_t{a[i]} - e.a_zero_point, vb = int64_t{b[j]} - e.b_zero_point;
    const int64_t sa = va * e.a_multiplier, sb = vb * e.b_multiplier;
    int64_t f = 0;
    switch (e.op) {
      case spec::EltwiseOp::kAdd:
        f = spec::RoundingShift(sa + sb, e.shift);
        break;
      case spec::EltwiseOp::kMul:
        f = spec::ApplyScale(static_cast<int32_t>(va * vb), e.a_multiplier, e.shift);
        break;
      case spec::EltwiseOp::kMax:
        f = spec::RoundingShift(std::max(sa, sb), e.shift);
        break;
      case spec::EltwiseOp::kMin:
        f = spec::RoundingShift(std::min(sa, sb), e.shift);
        break;
    }
    y[i] = static_cast<int8_t>(std::clamp(f + e.output_zero_point, lo, hi));
  }
  return y;
}

// y[i] = requantise(sum over k of (a[i] - z_a)(b[i] - z_b)), from the IR's definition
// (docs/quantized-ir.md), in 64-bit, each matrix where the layer's places say.
Tensor EvalMatMul(const MatMulLayer& l, const Tensor& a, const Tensor& b, uint64_t out_bytes) {
  Tensor y(out_bytes);
  for (uint32_t i = 0; i < l.batches(); ++i) {
    auto at_b = [&](uint64_t j, uint64_t c) {
      return l.b.offset[i] + (l.b_transposed ? c * l.b.row_stride + j : j * l.b.row_stride + c);
    };
    for (uint32_t r = 0; r < l.m; ++r) {
      for (uint32_t c = 0; c < l.n; ++c) {
        int64_t acc = 0;
        for (uint32_t j = 0; j < l.k; ++j) {
          acc += (int64_t{a[l.a.offset[i] + r * l.a.row_stride + j]} - l.a_zero_point) *
                 (int64_t{b[at_b(j, c)]} - l.b_zero_point);
        }
        y[l.y.offset[i] + r * l.y.row_stride + c] =
            spec::Requantize(static_cast<int32_t>(acc), 0, l.multiplier, l.shift,
                             l.output_zero_point, l.clamp_min, l.clamp_max);
      }
    }
  }
  return y;
}

}  // namespace

std::vector<Tensor> EvaluateNetwork(const Network& net, const std::vector<Tensor>& inputs) {
  std::vector<Tensor> values(net.values.size());
  for (size_t i = 0; i < net.inputs.size(); ++i) values[net.inputs[i]] = inputs.at(i);
  for (const NetLayer& l : net.layers) {
    const Tensor& x = values[l.inputs[0]];
    if (const auto* parts = l.conv_parts()) {
      values[l.output] = EvalConv(*parts, x, net.value(l.inputs[0]).c, net.value(l.output).c);
    } else if (const auto* e = std::get_if<EltwiseLayer>(&l.work)) {
      const Tensor& b = e->b_is_constant() ? e->b_constant : values[l.inputs.at(1)];
      values[l.output] = EvalEltwise(*e, x, b);
    } else if (const MatMulLayer* m = l.matmul()) {
      values[l.output] = EvalMatMul(*m, x, values[l.inputs.at(1)], net.value(l.output).bytes());
    } else {
      const LutLayer& lut = std::get<LutLayer>(l.work);
      Tensor y(x.size());
      for (size_t i = 0; i < x.size(); ++i) y[i] = lut.table[int{x[i]} + 128];
      values[l.output] = y;
    }
  }
  std::vector<Tensor> outputs;
  for (int v : net.outputs) outputs.push_back(values[v]);
  return outputs;
}

std::vector<int8_t> RandomBytes(uint64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int8_t> v(n);
  for (int8_t& x : v) x = static_cast<int8_t>(rng() % 256 - 128);
  return v;
}

std::vector<std::vector<int8_t>> RandomNetworkInputs(const Network& net, uint32_t seed) {
  std::vector<std::vector<int8_t>> inputs;
  for (int v : net.inputs) inputs.push_back(RandomBytes(net.value(v).bytes(), seed++));
  return inputs;
}

EltwiseLayer TestEltwise(spec::EltwiseOp op, spec::Broadcast broadcast, uint32_t h, uint32_t w,
                         uint32_t c, bool constant_b, uint32_t seed) {
  EltwiseLayer e;
  e.op = op;
  e.name = fmt::format("{}{}", e.OpName(), seed);
  e.h = h, e.w = w, e.c = c;
  e.broadcast = broadcast;
  e.a_zero_point = -5 + int32_t(seed % 7), e.b_zero_point = 9, e.output_zero_point = 3;
  e.clamp_min = seed % 2 ? -100 : -128, e.clamp_max = seed % 3 ? 127 : 90;
  if (op == spec::EltwiseOp::kMul) {
    e.a_multiplier = 1 << 24, e.b_multiplier = 0, e.shift = 30;  // A*B / 64
  } else {
    // 0.75 a and -0.625 b (a subtraction) for add; both positive for max/min.
    e.a_multiplier = 3 << 12;
    e.b_multiplier = op == spec::EltwiseOp::kAdd ? -(5 << 11) : 5 << 11;
    e.shift = 14;
  }
  if (constant_b) e.b_constant = RandomBytes(e.BElements(), seed + 1000);
  return e;
}

std::vector<int8_t> TestTable(uint32_t seed) {
  const std::function<double(double)> functions[] = {unary::Sigmoid, unary::Gelu, unary::HardSwish,
                                                     unary::Silu};
  return BuildLutTable(functions[seed % 4], {0.05f, -3, 1.0f / 64, -20});
}

LutLayer TestLut(uint32_t h, uint32_t w, uint32_t c, uint32_t seed) {
  LutLayer l;
  l.name = fmt::format("lut{}", seed);
  l.h = h, l.w = w, l.c = c;
  l.table = TestTable(seed);
  return l;
}

ConvLayer TestConv(uint32_t h, uint32_t w, uint32_t in_c, uint32_t out_c, bool table,
                   uint32_t seed) {
  workloads::SyntheticConvSpec s;
  s.name = fmt::format("conv{}", seed);
  s.in_h = h, s.in_w = w, s.in_c = in_c, s.out_c = out_c;
  s.kernel_h = s.kernel_w = 3;
  workloads::SetSamePadding(s);
  s.activation = workloads::Activation::kRelu;
  s.input_zero_point = -7, s.output_zero_point = 5;
  s.seed = seed;
  StatusOr<ConvLayer> conv = workloads::MakeSyntheticConv(s);
  NPU_CHECK(conv.ok());
  if (table) conv->table = TestTable(seed);
  return *conv;
}

MatMulLayer TestMatMul(uint32_t m, uint32_t k, uint32_t n, const std::vector<uint32_t>& a_batch,
                       const std::vector<uint32_t>& b_batch, uint32_t seed) {
  MatMulLayer l;
  l.name = fmt::format("matmul{}", seed);
  l.m = m, l.k = k, l.n = n;
  std::vector<uint32_t> outputs(a_batch.size());
  for (uint32_t i = 0; i < outputs.size(); ++i) outputs[i] = i;
  l.a = DenseMatrices(a_batch, m, k), l.b = DenseMatrices(b_batch, k, n);
  l.y = DenseMatrices(outputs, m, n);
  l.a_zero_point = -9 + int32_t(seed % 5), l.b_zero_point = 13 - int32_t(seed % 7);
  l.output_zero_point = -4;
  // Random int8 operands minus their zero points have a deviation near 74: the sum of k
  // products one near 5500 sqrt(k), scaled to about 40.
  const StatusOr<QuantizedMultiplier> q = QuantizeMultiplier(40.0 / (5500.0 * std::sqrt(k)));
  NPU_CHECK(q.ok());
  l.multiplier = q->multiplier, l.shift = q->shift;
  if (seed % 2) l.clamp_min = l.output_zero_point;  // a ReLU
  return l;
}

// Head h: its dim columns of a [tokens][heads x dim] value.
MatrixPlaces HeadColumns(uint32_t heads, uint32_t dim) {
  MatrixPlaces p;
  for (uint32_t h = 0; h < heads; ++h) p.offset.push_back(uint64_t{h} * dim);
  p.row_stride = uint64_t{heads} * dim;
  return p;
}

MatMulLayer HeadsScores(uint32_t tokens, uint32_t heads, uint32_t dim, uint32_t seed) {
  MatMulLayer l = TestMatMul(tokens, dim, tokens, std::vector<uint32_t>(heads, 0),
                             std::vector<uint32_t>(heads, 0), seed);
  l.a = l.b = HeadColumns(heads, dim);
  l.b_transposed = true;  // k's rows: tokens x dim, the transpose of the k x n the product needs
  std::vector<uint32_t> outputs(heads);
  for (uint32_t h = 0; h < heads; ++h) outputs[h] = h;
  l.y = DenseMatrices(outputs, tokens, tokens);
  return l;
}

MatMulLayer HeadsValues(uint32_t tokens, uint32_t heads, uint32_t dim, uint32_t seed) {
  MatMulLayer l = TestMatMul(tokens, tokens, dim, std::vector<uint32_t>(heads, 0),
                             std::vector<uint32_t>(heads, 0), seed);
  std::vector<uint32_t> index(heads);
  for (uint32_t h = 0; h < heads; ++h) index[h] = h;
  l.a = DenseMatrices(index, tokens, tokens);
  l.b = l.y = HeadColumns(heads, dim);
  return l;
}

Network BroadcastChain() {
  using spec::Broadcast;
  using spec::EltwiseOp;
  HandNetwork n("broadcast");
  const int x = n.Input(12, 10, 8, -7), v = n.Input(1, 1, 8, -7);
  const int t = n.Conv(x, {{TestConv(12, 10, 8, 16, false, 21)}});
  const int s = n.Conv(v, {{TestConv(1, 1, 8, 16, false, 22)}});
  const int p = n.Conv(x, {{TestConv(12, 10, 8, 1, false, 23)}});
  const int y =
      n.Eltwise(t, s, TestEltwise(EltwiseOp::kMul, Broadcast::kChannel, 12, 10, 16, false, 24));
  const int z =
      n.Eltwise(y, p, TestEltwise(EltwiseOp::kMax, Broadcast::kPixel, 12, 10, 16, false, 25));
  n.Output(n.Conv(z, {{TestConv(12, 10, 16, 8, true, 26)}}));
  return n.network();
}

Network OneEltwise(const EltwiseLayer& e) {
  HandNetwork n("eltwise");
  const int a = n.Input(e.h, e.w, e.c, e.a_zero_point);
  int b = -1;
  if (!e.b_is_constant()) {
    const bool full =
        e.broadcast == spec::Broadcast::kNone || e.broadcast == spec::Broadcast::kPixel;
    const uint32_t bh = full ? e.h : 1, bw = full ? e.w : 1;
    const uint32_t bc = e.broadcast == spec::Broadcast::kNone      ? e.c
                        : e.broadcast == spec::Broadcast::kChannel ? e.c
                                                                   : 1;
    b = n.Input(bh, bw, bc, e.b_zero_point);
  }
  n.Output(n.Eltwise(a, b, e));
  return n.network();
}

Network OneLut(const LutLayer& l) {
  HandNetwork n("lut");
  n.Output(n.Lut(n.Input(l.h, l.w, l.c), l));
  return n.network();
}

Network OneConv(std::vector<ConvPart> parts) {
  HandNetwork n("conv");
  uint32_t in_c = 0;
  for (const ConvPart& p : parts) in_c = std::max(in_c, p.in_channel_offset + p.conv.in_c);
  const ConvLayer& first = parts.front().conv;
  const int x = n.Input(first.in_h, first.in_w, in_c, first.input_zero_point);
  n.Output(n.Conv(x, std::move(parts)));
  return n.network();
}

Network OneMatMul(const MatMulLayer& l) {
  HandNetwork n("matmul");
  // Dense consecutive matrices: as many as the last offset reaches.
  const uint32_t a_matrices =
      uint32_t(*std::max_element(l.a.offset.begin(), l.a.offset.end()) / (uint64_t{l.m} * l.k) + 1);
  const uint32_t b_matrices =
      uint32_t(*std::max_element(l.b.offset.begin(), l.b.offset.end()) / (uint64_t{l.k} * l.n) + 1);
  const int a = n.Input(a_matrices, l.m, l.k, l.a_zero_point);
  const int b = n.Input(b_matrices, l.k, l.n, l.b_zero_point);
  n.Output(n.MatMul(a, b, l));
  return n.network();
}

}  // namespace npu::compiler::testing
