// Softmax, layer normalisation, reductions and matmul (docs/quantized-ir.md):
//   softmax:    per row along the axis, m = max(x); e = exp_table[x - m + 255];
//               y = clamp(RoundDiv(256 * e, sum of e) - 128)
//   layer_norm: per row of N values X = x - z_x: S1 = sum X, S2 = sum X^2,
//               sd = ISqrt(N*S2 - S1^2 + eps_term), q = RoundDiv((N*X - S1) * 4096, sd) (0 if
//               sd = 0), y = Requantize(q * w[c], bias[c], multiplier[c], shift[c], z_y, clamp)
//   reduce:     y = clamp(z_y + RescaledReduction(sum of (x - z_x), count, mean or sum,
//               multiplier, shift)) (hw/spec/semantics.h); max: the largest x
//   matmul:     acc = sum over k of (a - z_a) * (b - z_b) (batch dims broadcast), in 64 bits
//               saturated to int32,
//               y = Requantize(acc, 0, multiplier, shift, z_y, clamp)
#include <algorithm>
#include <limits>

#include "compiler/qinterp/qop_attrs.h"
#include "compiler/qinterp/shape_util.h"
#include "compiler/qinterp/tensor_kernels.h"
#include "hw/spec/arith.h"
#include "hw/spec/layer_norm.h"
#include "hw/spec/semantics.h"

namespace npu::compiler::qinterp {
namespace {

int32_t Zp(const ir::Tensor* t) { return t->quant().zero_point[0]; }

int32_t Sat32(int64_t v) { return static_cast<int32_t>(spec::Clamp64(v, INT32_MIN, INT32_MAX)); }

// outer x len x inner around `axis`.
struct Around {
  int64_t outer = 1, len = 1, inner = 1;
};
Around AroundAxis(const ir::Shape& s, int64_t axis) {
  Around a;
  for (int64_t d = 0; d < int64_t(s.size()); ++d) {
    if (d < axis) a.outer *= s[d];
    if (d == axis) a.len = s[d];
    if (d > axis) a.inner *= s[d];
  }
  return a;
}

}  // namespace

void SoftmaxKernel(const ir::Node& n, std::span<const int8_t> x, std::vector<int8_t>& y) {
  const std::vector<int64_t> table = n.attrs().GetInts("exp_table");
  const Around a = AroundAxis(n.input(0)->shape(), n.attrs().GetInt("axis", 0));
  for (int64_t o = 0; o < a.outer; ++o) {
    for (int64_t i = 0; i < a.inner; ++i) {
      auto at = [&](int64_t k) { return (o * a.len + k) * a.inner + i; };
      int32_t m = -128;
      for (int64_t k = 0; k < a.len; ++k) m = std::max<int32_t>(m, x[at(k)]);
      int64_t sum = 0;
      for (int64_t k = 0; k < a.len; ++k) sum += table[x[at(k)] - m + 255];
      for (int64_t k = 0; k < a.len; ++k) {
        const int64_t q = spec::RoundDiv(256 * table[x[at(k)] - m + 255], sum) - 128;
        y[at(k)] = static_cast<int8_t>(spec::Clamp64(q, -128, 127));
      }
    }
  }
}

void LayerNormKernel(const ir::Node& n, std::span<const int8_t> x, std::vector<int8_t>& y) {
  const int64_t c = n.input(0)->shape().back();
  const auto w = n.input(1)->data<int8_t>();
  const auto bias = n.input(2)->data<int32_t>();
  const QRequant r = *ReadRequant(n, c);
  std::vector<spec::LayerNormChannel> channels(c);
  for (int64_t k = 0; k < c; ++k) channels[k] = {w[k], bias[k], r.multiplier[k], r.shift[k]};
  spec::LayerNormRows(x, Zp(n.input(0)), n.attrs().GetInt("eps_term", 0), channels,
                      Zp(n.output(0)), r.clamp.min, r.clamp.max, y);
}

void ReduceKernel(const ir::Node& n, std::span<const int8_t> x, std::vector<int8_t>& y) {
  const ir::Shape& in = n.input(0)->shape();
  const std::vector<int64_t> axes = n.attrs().GetInts("axes");
  // The output index of each input position: reduced dims contribute nothing.
  ir::Shape kept = in;
  for (int64_t a : axes) kept[a] = 1;
  const std::vector<int64_t> to_out = BroadcastIndex(kept, in);
  const bool max = n.kind() == ir::OpKind::kReduceMax;
  std::vector<int64_t> acc(y.size(), max ? -128 : 0);
  const int64_t zx = Zp(n.input(0));
  for (size_t i = 0; i < x.size(); ++i) {
    acc[to_out[i]] = max ? std::max<int64_t>(acc[to_out[i]], x[i]) : acc[to_out[i]] + x[i] - zx;
  }
  if (max) {
    for (size_t o = 0; o < y.size(); ++o) y[o] = static_cast<int8_t>(acc[o]);
    return;
  }
  const QScale s = *ReadScale(n);
  const int64_t count = int64_t(x.size() / y.size());
  for (size_t o = 0; o < y.size(); ++o) {
    const int64_t q = Zp(n.output(0)) + spec::RescaledReduction(acc[o], count,
                                                                n.kind() == ir::OpKind::kReduceMean,
                                                                s.multiplier, s.shift);
    y[o] = static_cast<int8_t>(
        spec::Clamp64(q, std::max(s.clamp.min, -128), std::min(s.clamp.max, 127)));
  }
}

void MatMulKernel(const ir::Node& n, std::span<const int8_t> a, std::span<const int8_t> b,
                  std::vector<int8_t>& y) {
  const ir::Shape &sa = n.input(0)->shape(), &sb = n.input(1)->shape(), &sy = n.output(0)->shape();
  const int64_t m = sa[sa.size() - 2], k = sa.back(), cols = sb.back();
  const ir::Shape batch(sy.begin(), sy.end() - 2);
  const std::vector<int64_t> ia = BroadcastIndex(ir::Shape(sa.begin(), sa.end() - 2), batch);
  const std::vector<int64_t> ib = BroadcastIndex(ir::Shape(sb.begin(), sb.end() - 2), batch);
  const int32_t za = Zp(n.input(0)), zb = Zp(n.input(1)), zy = Zp(n.output(0));
  const QScale s = *ReadScale(n);
  for (size_t bi = 0; bi < ia.size(); ++bi) {
    const int8_t* pa = a.data() + ia[bi] * m * k;
    const int8_t* pb = b.data() + ib[bi] * k * cols;
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        int64_t acc = 0;
        for (int64_t j = 0; j < k; ++j) acc += (pa[r * k + j] - za) * (pb[j * cols + c] - zb);
        y[(bi * m + r) * cols + c] =
            spec::Requantize(Sat32(acc), 0, s.multiplier, s.shift, zy, s.clamp.min, s.clamp.max);
      }
    }
  }
}

}  // namespace npu::compiler::qinterp
