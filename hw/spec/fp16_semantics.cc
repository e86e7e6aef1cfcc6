// The FP16 semantics of CONV, ACT, POOL and ELTWISE (fp16_semantics.h).
#include "hw/spec/fp16_semantics.h"

#include <algorithm>

#include "hw/spec/arith.h"
#include "hw/spec/fp16.h"
#include "hw/spec/semantics.h"

namespace npu::spec {
namespace {

// The im2col row of output pixel (oh, ow): kernel_h * kernel_w * in_c FP16 values, kernel-major,
// +0 outside the region.
void GatherWindowFp16(const ConvArgs& c, std::span<const int8_t> input, uint32_t oh, uint32_t ow,
                      Fp16* row) {
  for (uint32_t kh = 0; kh < c.kernel_h; ++kh) {
    const int64_t y = int64_t{oh} * c.stride_h + int64_t{kh} * c.dilation_h - c.pad_top;
    for (uint32_t kw = 0; kw < c.kernel_w; ++kw) {
      const int64_t x = int64_t{ow} * c.stride_w + int64_t{kw} * c.dilation_w - c.pad_left;
      Fp16* dst = row + (uint64_t{kh} * c.kernel_w + kw) * c.in_c;
      const bool inside = y >= 0 && y < c.in_h && x >= 0 && x < c.in_w;
      const uint64_t base = inside ? (uint64_t(y) * c.in_w + uint64_t(x)) * c.in_c : 0;
      for (uint32_t ch = 0; ch < c.in_c; ++ch) {
        dst[ch] = inside ? LoadFp16(input.data(), base + ch) : Fp16{0};
      }
    }
  }
}

// The accumulator entry after adding the rounded sum `sum` (or replacing it), in FP32.
int32_t AccumulateFp32(const ConvArgs& c, int32_t entry, float sum) {
  const float value = c.accumulate ? BitsToFloat(static_cast<uint32_t>(entry)) + sum : sum;
  return static_cast<int32_t>(FloatToBits(value));
}

// Whether every value of `v` is finite (the fast path applies), and their terms.
bool TermsOf(const Fp16* v, uint64_t n, Fp16Term* terms) {
  bool finite = true;
  for (uint64_t i = 0; i < n; ++i) {
    finite = finite && IsFinite16(v[i]);
    terms[i] = Decompose16(v[i]);
  }
  return finite;
}

}  // namespace

// Each output's products go to one Fp16DotProduct. The weights and each pixel's window are
// split into terms once and reused across the output channels; a row or window holding an
// infinity or NaN takes the value-by-value path, which applies IEEE's special rules.
void ComputeConvFp16(const ConvArgs& c, std::span<const int8_t> input,
                     std::span<const int8_t> weights, std::span<int32_t> acc) {
  const uint64_t window = uint64_t{c.kernel_h} * c.kernel_w * c.in_c;
  const uint64_t k = ConvWeightRowValues(c);
  // Weights as rows of k, [n][i] whatever the layout (weights_kn stores [i][n]).
  std::vector<Fp16> w(uint64_t{c.out_c} * k);
  for (uint32_t n = 0; n < c.out_c; ++n) {
    for (uint64_t i = 0; i < k; ++i) {
      w[n * k + i] = LoadFp16(weights.data(), c.weights_kn ? i * c.out_c + n : n * k + i);
    }
  }
  std::vector<Fp16Term> w_terms(w.size());
  std::vector<uint8_t> w_finite(c.out_c);
  for (uint32_t n = 0; n < c.out_c; ++n) {
    w_finite[n] = TermsOf(w.data() + n * k, k, w_terms.data() + n * k);
  }
  std::vector<Fp16> gathered(window), row(window);
  std::vector<Fp16Term> row_terms(window);
  const uint64_t taps = uint64_t{c.kernel_h} * c.kernel_w;
  const uint32_t groups = c.depthwise ? 1 : c.groups, cg = c.in_c / groups;
  for (uint32_t oh = 0; oh < c.out_h; ++oh) {
    for (uint32_t ow = 0; ow < c.out_w; ++ow) {
      GatherWindowFp16(c, input, oh, ow, gathered.data());
      // Groups: the window [tap][channel] as [group][tap][channel of the group], so that each
      // group's k values are one run (the sum is exact, so their order does not matter).
      for (uint64_t t = 0; t < taps; ++t) {
        for (uint32_t ch = 0; ch < c.in_c; ++ch) {
          row[(uint64_t{ch / cg} * taps + t) * cg + ch % cg] = gathered[t * c.in_c + ch];
        }
      }
      const bool row_finite = TermsOf(row.data(), window, row_terms.data());
      int32_t* out = acc.data() + (uint64_t{oh} * c.out_w + ow) * c.out_c;
      for (uint32_t n = 0; n < c.out_c; ++n) {
        Fp16DotProduct dot;
        const Fp16* wn = w.data() + n * k;
        // Depthwise: channel n's taps, [tap][channel] in the window; grouped: n's group's run.
        const uint64_t first = c.depthwise ? n : uint64_t{n / (c.out_c / groups)} * k;
        const uint64_t stride = c.depthwise ? c.in_c : 1;
        if (row_finite && w_finite[n]) {
          dot.AddTerms(w_terms.data() + n * k, row_terms.data() + first, stride, k);
        } else {
          for (uint64_t i = 0; i < k; ++i) dot.Add(row[first + i * stride], wn[i]);
        }
        out[n] = AccumulateFp32(c, out[n], dot.Result());
      }
    }
  }
}

void ComputeActFp16(const ActArgs& a, std::span<const int32_t> acc,
                    std::span<const uint8_t> params, std::vector<int8_t>& out) {
  out.resize(ActAccEntries(a) * kFp16Bytes);
  const auto lo = static_cast<Fp16>(a.fp16_clamp_min), hi = static_cast<Fp16>(a.fp16_clamp_max);
  for (uint32_t n = 0; n < a.channels; ++n) {
    const float bias = BitsToFloat(static_cast<uint32_t>(ReadActParams(params, n).bias));
    for (uint64_t m = 0; m < a.pixels; ++m) {
      const uint64_t i = m * a.channels + n;
      const float sum = BitsToFloat(static_cast<uint32_t>(acc[i])) + bias;  // rounded to FP32
      StoreFp16(out.data(), i, ClampFp16(FloatToFp16(sum), lo, hi));
    }
  }
}

void ComputePoolFp16(const PoolArgs& p, std::span<const int8_t> input, std::vector<int8_t>& out) {
  out.resize(uint64_t{p.out_h} * p.out_w * p.channels * kFp16Bytes);
  const bool average = p.mode == uint32_t(PoolMode::kAverage);
  for (uint32_t oh = 0; oh < p.out_h; ++oh) {
    for (uint32_t ow = 0; ow < p.out_w; ++ow) {
      for (uint32_t c = 0; c < p.channels; ++c) {
        Fp16 max = kFp16NegInf;
        float sum = 0.0f;
        uint64_t inside = 0;
        for (uint32_t kh = 0; kh < p.kernel_h; ++kh) {
          const int64_t y = int64_t{oh} * p.stride_h + kh - p.pad_top;
          if (y < 0 || y >= p.in_h) continue;
          for (uint32_t kw = 0; kw < p.kernel_w; ++kw) {
            const int64_t x = int64_t{ow} * p.stride_w + kw - p.pad_left;
            if (x < 0 || x >= p.in_w) continue;
            const Fp16 v = LoadFp16(input.data(), (uint64_t(y) * p.in_w + uint64_t(x)) * p.channels + c);
            max = MaxFp16(max, v);
            sum += Fp16ToFloat(v);
            ++inside;
          }
        }
        const uint64_t count = p.count_include_pad ? uint64_t{p.kernel_h} * p.kernel_w : inside;
        const Fp16 mean = count == 0 ? Fp16{0} : FloatToFp16(sum / static_cast<float>(count));
        StoreFp16(out.data(), (uint64_t{oh} * p.out_w + ow) * p.channels + c, average ? mean : max);
      }
    }
  }
}

// With int8_out the FP16 result is quantised (QuantizeFp16 by EltwiseInt8OutScale), offset and
// clamped in 64 bits, so a saturated int32 cannot overflow.
void ComputeEltwiseFp16(const EltwiseArgs& e, std::span<const int8_t> a,
                        std::span<const int8_t> b, std::vector<int8_t>& out) {
  out.resize(EltwiseOutBytes(e));
  const float inv_scale = EltwiseInt8OutScale(e);
  const int64_t lo = std::max(e.clamp_min, -128), hi = std::min(e.clamp_max, 127);
  for (uint64_t i = 0; i < e.count; ++i) {
    const Fp16 x = LoadFp16(a.data(), i), y = LoadFp16(b.data(), EltwiseBIndex(e, i));
    Fp16 r = 0;
    switch (static_cast<EltwiseOp>(e.op)) {
      case EltwiseOp::kAdd:
        r = AddFp16(x, y);
        break;
      case EltwiseOp::kMul:
        r = MulFp16(x, y);
        break;
      case EltwiseOp::kMax:
        r = MaxFp16(x, y);
        break;
      case EltwiseOp::kMin:
        r = MinFp16(x, y);
        break;
    }
    if (e.fp16_relu) r = ReluFp16(r);
    if (e.int8_out) {
      const int64_t q = int64_t{e.out_zero_point} + QuantizeFp16(r, inv_scale);
      out[i] = static_cast<int8_t>(Clamp64(q, lo, hi));
    } else {
      StoreFp16(out.data(), i, r);
    }
  }
}

}  // namespace npu::spec
