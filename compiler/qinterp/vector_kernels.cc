// The pools of the quantised IR: max and average pooling (adds: tensor_kernels.cc).
//   max:     y = clamp(max of the taps inside the input)                (same quantisation)
//   average: y = clamp(z_y + RescaledMean(sum of (x - z_x) over the taps inside, count,
//                                        multiplier, shift))   (hw/spec/semantics.h)
// with count = kernel_h * kernel_w if count_include_pad, else the number of taps inside, and
// clamp to [max(clamp_min, -128), min(clamp_max, 127)].
#include <algorithm>
#include <limits>

#include "compiler/qinterp/kernels.h"
#include "hw/spec/arith.h"
#include "hw/spec/semantics.h"

namespace npu::compiler::qinterp {
namespace {

int8_t Clamp(int64_t v, const QClamp& c) {
  return static_cast<int8_t>(spec::Clamp64(v, std::max(c.min, -128), std::min(c.max, 127)));
}

// The input rows [y0, y1) and columns [x0, x1) of output pixel (oy, ox)'s window.
struct Taps {
  int64_t y0, y1, x0, x1;
};
Taps TapsInside(const QIn& x, const QWindow& win, int64_t oy, int64_t ox) {
  const int64_t y = oy * win.sh - win.pad_t, xs = ox * win.sw - win.pad_l;
  return {std::max<int64_t>(y, 0), std::min(y + win.kh, x.h), std::max<int64_t>(xs, 0),
          std::min(xs + win.kw, x.w)};
}

}  // namespace

void MaxPoolKernel(const QIn& x, const QPoolAttrs& a, QOut out) {
  for (int64_t oy = 0; oy < out.h; ++oy) {
    for (int64_t ox = 0; ox < out.w; ++ox) {
      const Taps t = TapsInside(x, a.window, oy, ox);
      int8_t* dst = out.v.data() + (oy * out.w + ox) * out.c;
      for (int64_t c = 0; c < out.c; ++c) {
        int32_t m = std::numeric_limits<int8_t>::min();
        for (int64_t iy = t.y0; iy < t.y1; ++iy) {
          for (int64_t ix = t.x0; ix < t.x1; ++ix) {
            m = std::max<int32_t>(m, x.v[(iy * x.w + ix) * x.c + c]);
          }
        }
        dst[c] = Clamp(m, a.clamp);
      }
    }
  }
}

void AveragePoolKernel(const QIn& x, const QPoolAttrs& a, QOut out) {
  for (int64_t oy = 0; oy < out.h; ++oy) {
    for (int64_t ox = 0; ox < out.w; ++ox) {
      const Taps t = TapsInside(x, a.window, oy, ox);
      const int64_t inside = (t.y1 - t.y0) * (t.x1 - t.x0);
      const int64_t count = a.count_include_pad ? a.window.kh * a.window.kw : inside;
      int8_t* dst = out.v.data() + (oy * out.w + ox) * out.c;
      for (int64_t c = 0; c < out.c; ++c) {
        int64_t sum = 0;
        for (int64_t iy = t.y0; iy < t.y1; ++iy) {
          for (int64_t ix = t.x0; ix < t.x1; ++ix) sum += x.v[(iy * x.w + ix) * x.c + c] - x.zp;
        }
        dst[c] =
            Clamp(int64_t{out.zp} + spec::RescaledMean(sum, count, a.multiplier, a.shift), a.clamp);
      }
    }
  }
}

}  // namespace npu::compiler::qinterp
