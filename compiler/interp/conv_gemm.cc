// Convolution as im2col + GEMM (Eigen), the interpreter's hot path (resnet18 spends ~95% of its
// time here). Per image and group:
//   NCHW: Y[Cout_g, OH*OW] = W[Cout_g, Cin_g*KH*KW] * col[Cin_g*KH*KW, OH*OW]
//         (W is OIHW, so its rows already are the GEMM's left operand)
//   NHWC: Y[OH*OW, Cout_g] = col[OH*OW, KH*KW*Cin_g] * Wt[KH*KW*Cin_g, Cout_g]
//         (each col row is whole pixels' channel runs, copied with memcpy; W is re-laid once)
// 1x1 stride-1 unpadded convolutions skip im2col: the input is the operand as it is.
#include <Eigen/Core>
#include <cstring>
#include <vector>

#include "compiler/interp/conv_kernels.h"

namespace npu::compiler::interp {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrixMap = Eigen::Map<const RowMatrix>;
using StridedMatrixMap = Eigen::Map<RowMatrix, 0, Eigen::OuterStride<>>;

// col[(c*KH + kh)*KW + kw][oh*OW + ow] for one image and group (c counts the group's channels).
void Im2ColNCHW(const ConvGeometry& g, const float* x, float* col) {
  const Window2D& w = g.win;
  const int64_t plane = w.out_h * w.out_w;
  for (int64_t c = 0; c < g.in_c_per_group; ++c) {
    const float* xc = x + c * w.in_h * w.in_w;
    for (int64_t kh = 0; kh < w.kh; ++kh) {
      for (int64_t kw = 0; kw < w.kw; ++kw) {
        float* row = col + ((c * w.kh + kh) * w.kw + kw) * plane;
        const int64_t off_w = kw * w.dw - w.pad_l;
        int64_t ow_lo, ow_hi;
        ValidRange(w.in_w, w.out_w, w.sw, off_w, &ow_lo, &ow_hi);
        for (int64_t oh = 0; oh < w.out_h; ++oh) {
          float* dst = row + oh * w.out_w;
          const int64_t ih = oh * w.sh - w.pad_t + kh * w.dh;
          if (ih < 0 || ih >= w.in_h) {
            std::memset(dst, 0, sizeof(float) * w.out_w);
            continue;
          }
          const float* src = xc + ih * w.in_w + off_w;
          std::fill(dst, dst + ow_lo, 0.0f);
          for (int64_t ow = ow_lo; ow < ow_hi; ++ow) dst[ow] = src[ow * w.sw];
          std::fill(dst + ow_hi, dst + w.out_w, 0.0f);
        }
      }
    }
  }
}

// col[oh*OW + ow][(kh*KW + kw)*Cin_g + c] for one image; `x` points at the group's first channel.
void Im2ColNHWC(const ConvGeometry& g, const float* x, float* col) {
  const Window2D& w = g.win;
  const int64_t cg = g.in_c_per_group, row_len = w.kh * w.kw * cg;
  for (int64_t oh = 0; oh < w.out_h; ++oh) {
    for (int64_t ow = 0; ow < w.out_w; ++ow) {
      float* dst = col + (oh * w.out_w + ow) * row_len;
      for (int64_t kh = 0; kh < w.kh; ++kh) {
        const int64_t ih = oh * w.sh - w.pad_t + kh * w.dh;
        for (int64_t kw = 0; kw < w.kw; ++kw, dst += cg) {
          const int64_t iw = ow * w.sw - w.pad_l + kw * w.dw;
          if (ih < 0 || ih >= w.in_h || iw < 0 || iw >= w.in_w) {
            std::memset(dst, 0, sizeof(float) * cg);
          } else {
            std::memcpy(dst, x + (ih * w.in_w + iw) * g.x.c, sizeof(float) * cg);
          }
        }
      }
    }
  }
}

// Wt[(kh*KW + kw)*Cin_g + ci][co] for group `group`, from OIHW weights.
std::vector<float> WeightsHWIO(const ConvGeometry& g, const float* w, int64_t group) {
  const int64_t khw = g.win.kh * g.win.kw, cg = g.in_c_per_group, og = g.out_c_per_group;
  std::vector<float> wt(static_cast<size_t>(khw * cg * og));
  for (int64_t co = 0; co < og; ++co) {
    const float* src = w + (group * og + co) * cg * khw;
    for (int64_t ci = 0; ci < cg; ++ci) {
      for (int64_t k = 0; k < khw; ++k) wt[(k * cg + ci) * og + co] = src[ci * khw + k];
    }
  }
  return wt;
}

}  // namespace

void ConvGemmNCHW(const ConvGeometry& g, const float* x, const float* w, float* y) {
  const Window2D& win = g.win;
  const int64_t in_plane = win.in_h * win.in_w, out_plane = win.out_h * win.out_w;
  const int64_t k = g.in_c_per_group * win.kh * win.kw;
  std::vector<float> col(g.pointwise() ? 0 : static_cast<size_t>(k * out_plane));
  for (int64_t n = 0; n < g.x.n; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const float* xg = x + (n * g.x.c + grp * g.in_c_per_group) * in_plane;
      const float* operand = xg;
      if (!g.pointwise()) {
        Im2ColNCHW(g, xg, col.data());
        operand = col.data();
      }
      ConstMatrixMap wm(w + grp * g.out_c_per_group * k, g.out_c_per_group, k);
      ConstMatrixMap cm(operand, k, out_plane);
      StridedMatrixMap ym(y + (n * g.out_c + grp * g.out_c_per_group) * out_plane,
                          g.out_c_per_group, out_plane, Eigen::OuterStride<>(out_plane));
      ym.noalias() = wm * cm;
    }
  }
}

void ConvGemmNHWC(const ConvGeometry& g, const float* x, const float* w, float* y) {
  const Window2D& win = g.win;
  const int64_t out_plane = win.out_h * win.out_w;
  const int64_t k = g.in_c_per_group * win.kh * win.kw;
  const bool direct = g.pointwise() && g.groups == 1;
  std::vector<float> col(direct ? 0 : static_cast<size_t>(k * out_plane));
  for (int64_t grp = 0; grp < g.groups; ++grp) {
    const std::vector<float> wt = WeightsHWIO(g, w, grp);
    ConstMatrixMap wm(wt.data(), k, g.out_c_per_group);
    for (int64_t n = 0; n < g.x.n; ++n) {
      const float* xn = x + n * win.in_h * win.in_w * g.x.c;
      const float* operand = xn;
      if (!direct) {
        Im2ColNHWC(g, xn + grp * g.in_c_per_group, col.data());
        operand = col.data();
      }
      ConstMatrixMap cm(operand, out_plane, k);
      StridedMatrixMap ym(y + n * out_plane * g.out_c + grp * g.out_c_per_group, out_plane,
                          g.out_c_per_group, Eigen::OuterStride<>(g.out_c));
      ym.noalias() = cm * wm;
    }
  }
}

}  // namespace npu::compiler::interp
