// Depthwise convolution (one input and one output channel per group, as in MobileNet), computed
// directly: im2col + GEMM would make thousands of 1-row GEMMs. NCHW walks each channel's plane
// with the padding ranges precomputed; NHWC walks pixels with the channel loop innermost (weights
// re-laid to [KH*KW, C] so both operands are contiguous and the loop vectorises).
#include <cstring>
#include <vector>

#include "compiler/interp/conv_kernels.h"

namespace npu::compiler::interp {

void ConvDepthwiseNCHW(const ConvGeometry& g, const float* x, const float* w, float* y) {
  const Window2D& win = g.win;
  const int64_t in_plane = win.in_h * win.in_w, out_plane = win.out_h * win.out_w;
  for (int64_t n = 0; n < g.x.n; ++n) {
    for (int64_t c = 0; c < g.x.c; ++c) {
      const float* xc = x + (n * g.x.c + c) * in_plane;
      const float* wc = w + c * win.kh * win.kw;
      float* yc = y + (n * g.x.c + c) * out_plane;
      std::memset(yc, 0, sizeof(float) * out_plane);
      for (int64_t kw = 0; kw < win.kw; ++kw) {
        const int64_t off_w = kw * win.dw - win.pad_l;
        int64_t lo, hi;
        ValidRange(win.in_w, win.out_w, win.sw, off_w, &lo, &hi);
        for (int64_t oh = 0; oh < win.out_h; ++oh) {
          float* yrow = yc + oh * win.out_w;
          for (int64_t kh = 0; kh < win.kh; ++kh) {
            const int64_t ih = oh * win.sh - win.pad_t + kh * win.dh;
            if (ih < 0 || ih >= win.in_h) continue;
            const float wv = wc[kh * win.kw + kw];
            const float* xrow = xc + ih * win.in_w + off_w;
            for (int64_t ow = lo; ow < hi; ++ow) yrow[ow] += wv * xrow[ow * win.sw];
          }
        }
      }
    }
  }
}

void ConvDepthwiseNHWC(const ConvGeometry& g, const float* x, const float* w, float* y) {
  const Window2D& win = g.win;
  const int64_t c_count = g.x.c, khw = win.kh * win.kw;
  std::vector<float> wt(static_cast<size_t>(khw * c_count));
  for (int64_t c = 0; c < c_count; ++c) {
    for (int64_t k = 0; k < khw; ++k) wt[k * c_count + c] = w[c * khw + k];
  }
  for (int64_t n = 0; n < g.x.n; ++n) {
    const float* xn = x + n * win.in_h * win.in_w * c_count;
    float* yn = y + n * win.out_h * win.out_w * c_count;
    for (int64_t oh = 0; oh < win.out_h; ++oh) {
      for (int64_t ow = 0; ow < win.out_w; ++ow) {
        float* yp = yn + (oh * win.out_w + ow) * c_count;
        std::memset(yp, 0, sizeof(float) * c_count);
        for (int64_t kh = 0; kh < win.kh; ++kh) {
          const int64_t ih = oh * win.sh - win.pad_t + kh * win.dh;
          if (ih < 0 || ih >= win.in_h) continue;
          for (int64_t kw = 0; kw < win.kw; ++kw) {
            const int64_t iw = ow * win.sw - win.pad_l + kw * win.dw;
            if (iw < 0 || iw >= win.in_w) continue;
            const float* xp = xn + (ih * win.in_w + iw) * c_count;
            const float* wp = wt.data() + (kh * win.kw + kw) * c_count;
            for (int64_t c = 0; c < c_count; ++c) yp[c] += wp[c] * xp[c];
          }
        }
      }
    }
  }
}

}  // namespace npu::compiler::interp
