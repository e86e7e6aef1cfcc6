// Lookup tables, broadcasting binary ops and data movement:
//   lut:        y = table[x + 128]
//   add:        y = clamp(z_y + ((A*Ma + B*Mb + 2^(shift-1)) >> shift))   A = a - z_a, B = b - z_b
//   mul:        y = clamp(z_y + ApplyScale(A*B, multiplier, shift))
//   max, min:   y = clamp(z_y + ((max(A*Ma, B*Mb) + 2^(shift-1)) >> shift)), min likewise
//   (numpy broadcasting of a and b; 64-bit sums, arithmetic shifts)
//   concat, slice (per-dim start and step), transpose, channel_shuffle (NHWC), pad (the value),
//   resize (per row and column two source indices and the second's weight w in 1/1024:
//   y = z + RoundDiv(sum over the 4 taps of (x - z) * wy * wx, 2^20), spec::ResizeBlend).
#include "compiler/qinterp/tensor_kernels.h"

#include <algorithm>
#include <climits>

#include "compiler/qinterp/qop_attrs.h"
#include "compiler/qinterp/shape_util.h"
#include "hw/spec/arith.h"
#include "hw/spec/resize.h"
#include "hw/spec/semantics.h"

namespace npu::compiler::qinterp {
namespace {

using ir::OpKind;

int8_t Clamp(int64_t v, const QClamp& c) {
  return static_cast<int8_t>(spec::Clamp64(v, std::max(c.min, -128), std::min(c.max, 127)));
}

int32_t Zp(const ir::Tensor* t) { return t->quant().zero_point[0]; }

void Binary(const ir::Node& n, std::span<const int8_t> a, std::span<const int8_t> b,
            std::vector<int8_t>& y) {
  const ir::Shape& out = n.output(0)->shape();
  const std::vector<int64_t> ia = BroadcastIndex(n.input(0)->shape(), out);
  const std::vector<int64_t> ib = BroadcastIndex(n.input(1)->shape(), out);
  const int32_t za = Zp(n.input(0)), zb = Zp(n.input(1)), zy = Zp(n.output(0));
  if (n.kind() == OpKind::kMul) {
    const QScale s = *ReadScale(n);
    for (size_t i = 0; i < y.size(); ++i) {
      const int32_t prod = (a[ia[i]] - za) * (b[ib[i]] - zb);
      y[i] = Clamp(int64_t{zy} + spec::ApplyScale(prod, s.multiplier, s.shift), s.clamp);
    }
    return;
  }
  const QAddAttrs s = *ReadAddAttrs(n);
  const int64_t round = int64_t{1} << (s.shift - 1);
  for (size_t i = 0; i < y.size(); ++i) {
    const int64_t ta = int64_t{a[ia[i]] - za} * s.a_multiplier;
    const int64_t tb = int64_t{b[ib[i]] - zb} * s.b_multiplier;
    const int64_t t = n.kind() == OpKind::kMax   ? std::max(ta, tb)
                      : n.kind() == OpKind::kMin ? std::min(ta, tb)
                                                 : ta + tb;
    y[i] = Clamp(int64_t{zy} + ((t + round) >> s.shift), s.clamp);
  }
}

// y[out position] = x[source(out position)] for a permutation or selection of positions given
// per output dim by (start, step) along input dim perm[d].
void Gather(const ir::Shape& in, const ir::Shape& out, const std::vector<int64_t>& perm,
            const std::vector<int64_t>& start, const std::vector<int64_t>& step,
            std::span<const int8_t> x, std::vector<int8_t>& y) {
  const std::vector<int64_t> strides = Strides(in);
  std::vector<int64_t> pos(out.size(), 0);
  for (int8_t& v : y) {
    int64_t i = 0;
    for (size_t d = 0; d < out.size(); ++d) {
      i += (start[d] + pos[d] * step[d]) * strides[perm[d]];
    }
    v = x[i];
    for (int64_t d = int64_t(out.size()) - 1; d >= 0; --d) {
      if (++pos[d] < out[d]) break;
      pos[d] = 0;
    }
  }
}

void Concat(const ir::Node& n, const std::vector<std::span<const int8_t>>& in,
            std::vector<int8_t>& y) {
  const int64_t axis = n.attrs().GetInt("axis", 0);
  const ir::Shape& out = n.output(0)->shape();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < int64_t(out.size()); ++d) {
    if (d < axis) outer *= out[d];
    if (d > axis) inner *= out[d];
  }
  int64_t offset = 0;
  for (size_t k = 0; k < in.size(); ++k) {
    const int64_t run = n.input(k)->shape()[axis] * inner;
    for (int64_t o = 0; o < outer; ++o) {
      std::copy_n(in[k].data() + o * run, run, y.data() + o * out[axis] * inner + offset);
    }
    offset += run;
  }
}

void Pad(const ir::Node& n, std::span<const int8_t> x, std::vector<int8_t>& y) {
  const ir::Shape &in = n.input(0)->shape(), &out = n.output(0)->shape();
  const std::vector<int64_t> pads = n.attrs().GetInts("pads");
  std::fill(y.begin(), y.end(), static_cast<int8_t>(n.attrs().GetInt("value", 0)));
  const std::vector<int64_t> out_strides = Strides(out);
  std::vector<int64_t> pos(in.size(), 0);
  for (int8_t v : x) {
    int64_t i = 0;
    for (size_t d = 0; d < in.size(); ++d) i += (pos[d] + pads[d]) * out_strides[d];
    y[i] = v;
    for (int64_t d = int64_t(in.size()) - 1; d >= 0; --d) {
      if (++pos[d] < in[d]) break;
      pos[d] = 0;
    }
  }
}

void Resize(const ir::Node& n, std::span<const int8_t> x, std::vector<int8_t>& y) {
  const ir::Shape &in = n.input(0)->shape(), &out = n.output(0)->shape();
  const std::vector<int64_t> ht = n.attrs().GetInts("h_taps"), wt = n.attrs().GetInts("w_taps");
  const int64_t w_in = in[2], c = in[3];
  const int32_t z = Zp(n.input(0));
  auto at = [&](int64_t r, int64_t col, int64_t ch) { return x[(r * w_in + col) * c + ch]; };
  for (int64_t oy = 0; oy < out[1]; ++oy) {
    const int64_t r0 = ht[3 * oy], r1 = ht[3 * oy + 1];
    const int32_t fy = int32_t(ht[3 * oy + 2]);
    for (int64_t ox = 0; ox < out[2]; ++ox) {
      const int64_t c0 = wt[3 * ox], c1 = wt[3 * ox + 1];
      const int32_t fx = int32_t(wt[3 * ox + 2]);
      for (int64_t ch = 0; ch < c; ++ch) {
        y[(oy * out[2] + ox) * c + ch] = spec::ResizeBlend(
            at(r0, c0, ch), at(r0, c1, ch), at(r1, c0, ch), at(r1, c1, ch), fy, fx, z);
      }
    }
  }
}

// y: the i32 sums (little-endian bytes) of x - zp over x's pixels, plus the sums operand's.
void PoolSum(const ir::Node& n, const std::vector<std::span<const int8_t>>& in,
             std::vector<int8_t>& y) {
  const ir::Shape& x = n.input(0)->shape();
  const int64_t c = x[3], pixels = x[1] * x[2], zp = n.input(0)->quant().zero_point[0];
  std::vector<int64_t> sums(size_t(c), 0);
  if (in.size() == 2) {
    for (int64_t ch = 0; ch < c; ++ch) sums[ch] = spec::ReadInt32Le(in[1], ch);
  }
  for (int64_t p = 0; p < pixels; ++p) {
    for (int64_t ch = 0; ch < c; ++ch) sums[ch] += in[0][p * c + ch] - zp;
  }
  y.resize(size_t(c) * spec::kPoolSumBytes);
  for (int64_t ch = 0; ch < c; ++ch) {
    spec::WriteInt32Le(y, ch, int32_t(std::clamp<int64_t>(sums[ch], INT32_MIN, INT32_MAX)));
  }
}

// y: the means of the sums over the node's window, rounded once (as a global average pool's).
void PoolMean(const ir::Node& n, std::span<const int8_t> sums, std::vector<int8_t>& y) {
  const QPoolAttrs a = *ReadPoolAttrs(n);
  const int64_t count = a.window.kh * a.window.kw, zp = n.output(0)->quant().zero_point[0];
  for (size_t ch = 0; ch < y.size(); ++ch) {
    const int64_t mean =
        spec::RescaledMean(spec::ReadInt32Le(sums, ch), count, a.multiplier, a.shift);
    y[ch] = int8_t(std::clamp<int64_t>(zp + mean, a.clamp.min, a.clamp.max));
  }
}

std::vector<int64_t> Identity(size_t rank) {
  std::vector<int64_t> p(rank);
  for (size_t d = 0; d < rank; ++d) p[d] = int64_t(d);
  return p;
}

}  // namespace

bool RunTensorKernel(const ir::Node& n, const std::vector<std::span<const int8_t>>& in,
                     std::vector<int8_t>& y) {
  const ir::Shape &x_shape = n.input(0)->shape(), &out = n.output(0)->shape();
  switch (n.kind()) {
    case OpKind::kPoolSum:
      PoolSum(n, in, y);
      return true;
    case OpKind::kPoolMean:
      PoolMean(n, in[0], y);
      return true;
    case OpKind::kLut: {
      const std::vector<int64_t> table = n.attrs().GetInts("table");
      for (size_t i = 0; i < y.size(); ++i) y[i] = static_cast<int8_t>(table[in[0][i] + 128]);
      return true;
    }
    case OpKind::kAdd:
    case OpKind::kFusedAdd:
    case OpKind::kMul:
    case OpKind::kMax:
    case OpKind::kMin:
      Binary(n, in[0], in[1], y);
      return true;
    case OpKind::kConcat:
      Concat(n, in, y);
      return true;
    case OpKind::kSlice:
      Gather(x_shape, out, Identity(out.size()), n.attrs().GetInts("starts"),
             n.attrs().GetInts("steps"), in[0], y);
      return true;
    case OpKind::kTranspose:
      Gather(x_shape, out, n.attrs().GetInts("perm"), std::vector<int64_t>(out.size(), 0),
             std::vector<int64_t>(out.size(), 1), in[0], y);
      return true;
    case OpKind::kChannelShuffle: {  // y[p, j*g + i] = x[p, i*(C/g) + j]
      const int64_t c = out[3], g = n.attrs().GetInt("group", 1), per = c / g;
      for (size_t p = 0; p < y.size() / c; ++p) {
        for (int64_t i = 0; i < g; ++i) {
          for (int64_t j = 0; j < per; ++j) y[p * c + j * g + i] = in[0][p * c + i * per + j];
        }
      }
      return true;
    }
    case OpKind::kPad:
      Pad(n, in[0], y);
      return true;
    case OpKind::kResize:
      Resize(n, in[0], y);
      return true;
    case OpKind::kSoftmax:
      SoftmaxKernel(n, in[0], y);
      return true;
    case OpKind::kLayerNormalization:
      LayerNormKernel(n, in[0], y);
      return true;
    case OpKind::kReduceMean:
    case OpKind::kReduceSum:
    case OpKind::kReduceMax:
      ReduceKernel(n, in[0], y);
      return true;
    case OpKind::kMatMul:
      MatMulKernel(n, in[0], in[1], y);
      return true;
    default:
      return false;
  }
}

}  // namespace npu::compiler::qinterp
