// The MAC-array ops of the quantised IR: convolution (group 1 and depthwise) and Gemm, each
// followed by the activation unit's requantisation.
//
// acc[o] = sum over the window of (x - z_x) * w[o], taps in the padding adding 0, then
// y = spec::Requantize(acc, bias[o], multiplier[o], shift[o], z_y, clamp_min, clamp_max).
//
// Speed without cleverness: operands are widened to int16 (x - z_x is in [-255, 255]) so that the
// inner loop is a plain int16 x int16 -> int32 dot product the compiler vectorises; convolution
// gathers the window of a few output pixels at a time (im2col) and reuses each weight row for all
// of them. The int32 sums are exact: the checker bounds a reduction at 65535 terms.
#include <algorithm>
#include <vector>

#include "compiler/qinterp/kernels.h"
#include "hw/spec/arith.h"

namespace npu::compiler::qinterp {
namespace {

constexpr int64_t kPixelBlock = 8;  // output pixels sharing one pass over the weights

int32_t Dot(const int16_t* a, const int16_t* b, int64_t n) {
  int32_t acc = 0;
  for (int64_t i = 0; i < n; ++i) acc += int32_t{a[i]} * int32_t{b[i]};
  return acc;
}

std::vector<int16_t> Widen(std::span<const int8_t> v) { return {v.begin(), v.end()}; }

int8_t Requant(int32_t acc, int32_t bias, const QRequant& r, size_t o, int32_t zp) {
  return spec::Requantize(acc, bias, r.multiplier[o], r.shift[o], zp, r.clamp.min, r.clamp.max);
}

// The window of output pixel (oy, ox) over input channels [c0, c0 + n) as [kh][kw][c] values
// x - z_x, 0 for taps in the padding.
void GatherWindow(const QIn& x, const QWindow& win, int64_t c0, int64_t n, int64_t oy, int64_t ox,
                  int16_t* patch) {
  for (int64_t i = 0; i < win.kh; ++i) {
    const int64_t iy = oy * win.sh - win.pad_t + i * win.dh;
    for (int64_t j = 0; j < win.kw; ++j) {
      const int64_t ix = ox * win.sw - win.pad_l + j * win.dw;
      int16_t* dst = patch + (i * win.kw + j) * n;
      if (iy < 0 || iy >= x.h || ix < 0 || ix >= x.w) {
        std::fill(dst, dst + n, int16_t{0});
        continue;
      }
      const int8_t* src = x.v.data() + (iy * x.w + ix) * x.c + c0;
      for (int64_t c = 0; c < n; ++c) dst[c] = static_cast<int16_t>(src[c] - x.zp);
    }
  }
}

}  // namespace

void ConvKernel(const QIn& x, std::span<const int8_t> w, std::span<const int32_t> bias,
                const QConvAttrs& a, QOut out) {
  // 1. Weights as int16 rows of k = kh*kw*(c/group) values, in the window's order (OHWI).
  const QWindow& win = a.window;
  const int64_t in_g = x.c / a.group, out_g = out.c / a.group;
  const int64_t k = win.kh * win.kw * in_g;
  const std::vector<int16_t> w16 = Widen(w);
  std::vector<int16_t> patches(kPixelBlock * k);
  const int64_t pixels = out.h * out.w;
  for (int64_t g = 0; g < a.group; ++g) {
    for (int64_t p0 = 0; p0 < pixels; p0 += kPixelBlock) {
      // 2. The windows of a block of output pixels over the group's input channels.
      const int64_t n = std::min(kPixelBlock, pixels - p0);
      for (int64_t p = 0; p < n; ++p) {
        GatherWindow(x, win, g * in_g, in_g, (p0 + p) / out.w, (p0 + p) % out.w, &patches[p * k]);
      }
      // 3. The group's output channels of every pixel in the block: dot product, requantise.
      for (int64_t o = g * out_g; o < (g + 1) * out_g; ++o) {
        const int16_t* row = &w16[o * k];
        for (int64_t p = 0; p < n; ++p) {
          const int32_t acc = Dot(&patches[p * k], row, k);
          out.v[(p0 + p) * out.c + o] = Requant(acc, bias[o], a.requant, o, out.zp);
        }
      }
    }
  }
}

void DepthwiseConvKernel(const QIn& x, std::span<const int8_t> w, std::span<const int32_t> bias,
                         const QConvAttrs& a, QOut out) {
  // 1. Weights [c][kh][kw] re-laid as [kh][kw][c], so the channel loop below is contiguous.
  const QWindow& win = a.window;
  const int64_t taps = win.kh * win.kw;
  std::vector<int32_t> wt(taps * x.c);
  for (int64_t c = 0; c < x.c; ++c) {
    for (int64_t t = 0; t < taps; ++t) wt[t * x.c + c] = w[c * taps + t];
  }
  std::vector<int32_t> acc(x.c);
  for (int64_t oy = 0; oy < out.h; ++oy) {
    for (int64_t ox = 0; ox < out.w; ++ox) {
      // 2. Per channel, the sum over the taps inside the input of (x - z_x) * w.
      std::fill(acc.begin(), acc.end(), 0);
      for (int64_t i = 0; i < win.kh; ++i) {
        const int64_t iy = oy * win.sh - win.pad_t + i * win.dh;
        if (iy < 0 || iy >= x.h) continue;
        for (int64_t j = 0; j < win.kw; ++j) {
          const int64_t ix = ox * win.sw - win.pad_l + j * win.dw;
          if (ix < 0 || ix >= x.w) continue;
          const int8_t* src = x.v.data() + (iy * x.w + ix) * x.c;
          const int32_t* wrow = &wt[(i * win.kw + j) * x.c];
          for (int64_t c = 0; c < x.c; ++c) acc[c] += (src[c] - x.zp) * wrow[c];
        }
      }
      // 3. Requantise.
      int8_t* dst = out.v.data() + (oy * out.w + ox) * out.c;
      for (int64_t c = 0; c < out.c; ++c) dst[c] = Requant(acc[c], bias[c], a.requant, c, out.zp);
    }
  }
}

void GemmKernel(const QIn& x, std::span<const int8_t> w, std::span<const int32_t> bias,
                const QRequant& r, QOut out) {
  const int64_t n = int64_t(bias.size()), k = int64_t(w.size()) / n;
  const std::vector<int16_t> w16 = Widen(w);
  std::vector<int16_t> xs(k);
  for (size_t row = 0; row < x.v.size() / k; ++row) {
    for (int64_t i = 0; i < k; ++i) xs[i] = static_cast<int16_t>(x.v[row * k + i] - x.zp);
    for (int64_t o = 0; o < n; ++o) {
      out.v[row * n + o] = Requant(Dot(xs.data(), &w16[o * k], k), bias[o], r, o, out.zp);
    }
  }
}

}  // namespace npu::compiler::qinterp
