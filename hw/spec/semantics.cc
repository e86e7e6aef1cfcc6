// The functional semantics of CONV, ACT and POOL (ELTWISE and LUT: eltwise_semantics.cc).
#include "hw/spec/semantics.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "hw/spec/arith.h"
#include "hw/spec/fp16.h"
#include "hw/spec/fp16_semantics.h"
#include "hw/spec/int4.h"

namespace npu::spec {

uint64_t ConvInputBytes(const ConvArgs& c) {
  return uint64_t{c.in_h} * c.in_w * c.in_c * ElementBytes(c.fp16);
}
// A weight row: one output channel's (depthwise: one channel's) reduction.
uint64_t ConvWeightRowValues(const ConvArgs& c) {
  return uint64_t{c.kernel_h} * c.kernel_w * (c.depthwise ? 1 : c.in_c / std::max(1u, c.groups));
}
uint64_t ConvWeightBytes(const ConvArgs& c) {
  const uint64_t row = ConvWeightRowValues(c);
  return uint64_t{c.out_c} * (c.weights_int4 ? Int4RowBytes(row) : row * ElementBytes(c.fp16));
}
uint64_t ConvAccEntries(const ConvArgs& c) { return uint64_t{c.out_h} * c.out_w * c.out_c; }
uint64_t ActAccEntries(const ActArgs& a) { return uint64_t{a.pixels} * a.channels; }
uint64_t ActParamBytes(const ActArgs& a) { return uint64_t{a.channels} * kActParamBytes; }
uint64_t ActOutputSpan(const ActArgs& a) {
  const uint64_t elements =
      a.pixels == 0 ? 0 : uint64_t{a.pixels - 1} * a.out_pixel_stride + a.channels;
  return elements * ElementBytes(a.fp16);
}

uint64_t PoolInElementBytes(const PoolArgs& p) {
  return p.mode == uint32_t(PoolMode::kMeanOfSums) ? kPoolSumBytes : ElementBytes(p.fp16);
}
uint64_t PoolOutElementBytes(const PoolArgs& p) {
  return p.mode == uint32_t(PoolMode::kSum) ? kPoolSumBytes : ElementBytes(p.fp16);
}
uint64_t PoolInputBytes(const PoolArgs& p) {
  return uint64_t{p.in_h} * p.in_w * p.channels * PoolInElementBytes(p);
}
uint64_t PoolOutputBytes(const PoolArgs& p) {
  return uint64_t{p.out_h} * p.out_w * p.channels * PoolOutElementBytes(p);
}
uint64_t PoolOutputSpan(const PoolArgs& p) {
  const uint64_t pixels = uint64_t{p.out_h} * p.out_w;
  return (pixels == 0 ? 0 : (pixels - 1) * p.out_pixel_stride + p.channels) *
         PoolOutElementBytes(p);
}

std::string CheckConv(const ConvArgs& c) {
  if (c.in_h == 0 || c.in_w == 0 || c.in_c == 0) return "empty input region";
  if (c.out_h == 0 || c.out_w == 0 || c.out_c == 0) return "empty output tile";
  if (c.kernel_h == 0 || c.kernel_w == 0) return "zero kernel size";
  if (c.stride_h == 0 || c.stride_w == 0) return "zero stride";
  if (c.dilation_h == 0 || c.dilation_w == 0) return "zero dilation";
  if (c.depthwise && c.in_c != c.out_c) return "depthwise with in_c != out_c";
  if (c.groups == 0) return "groups 0 (1 is an ordinary convolution)";
  if (c.groups > 1) {
    if (c.in_c % c.groups != 0 || c.out_c % c.groups != 0) {
      return fmt::format("groups {} do not divide in_c {} and out_c {}", c.groups, c.in_c,
                         c.out_c);
    }
    if (c.depthwise || c.weights_kn) return "groups > 1 with depthwise or weights_kn";
  }
  if (c.weights_kn && (c.kernel_h != 1 || c.kernel_w != 1)) {
    return fmt::format("weights_kn with a {}x{} kernel (1x1 only)", c.kernel_h, c.kernel_w);
  }
  if (c.weights_kn && c.depthwise) return "weights_kn with depthwise";
  if (c.weights_kn && c.weights_int4) return "weights_int4 with weights_kn";
  if (c.fp16 && c.weights_int4) return "fp16 with weights_int4";
  if (c.fp16 && (c.in_zero_point != 0 || c.wt_zero_point != 0 || c.pad_value != 0)) {
    return "fp16 with a zero point or pad_value (must be 0)";
  }
  return "";
}

std::string CheckPool(const PoolArgs& p) {
  if (p.in_h == 0 || p.in_w == 0 || p.channels == 0) return "empty input region";
  if (p.out_h == 0 || p.out_w == 0) return "empty output";
  if (p.kernel_h == 0 || p.kernel_w == 0 || p.stride_h == 0 || p.stride_w == 0) {
    return "zero kernel or stride";
  }
  if (p.mode > uint32_t(PoolMode::kMeanOfSums)) return fmt::format("unknown pool mode {}", p.mode);
  if (p.out_h * p.out_w > 1 && p.out_pixel_stride < p.channels) {
    return "out_pixel_stride < channels: pixels would overlap";
  }
  const auto mode = static_cast<PoolMode>(p.mode);
  const bool means = mode == PoolMode::kAverage || mode == PoolMode::kMeanOfSums;
  if (!p.fp16 && means && (p.shift < 1 || p.shift > 62)) {
    return fmt::format("average pool shift {} outside 1..62", p.shift);
  }
  if (p.fp16 && (mode == PoolMode::kSum || mode == PoolMode::kMeanOfSums)) {
    return "fp16 with a sum or mean-of-sums pool (int8 only)";
  }
  if (p.accumulate && mode != PoolMode::kSum) return "accumulate without the sum mode";
  if (mode == PoolMode::kMeanOfSums && (p.out_h != p.in_h || p.out_w != p.in_w)) {
    return fmt::format("mean of sums from {}x{} sums to a {}x{} output (one mean a sum)", p.in_h,
                       p.in_w, p.out_h, p.out_w);
  }
  return "";
}

std::string CheckAct(const ActArgs& a) {
  if (a.pixels == 0 || a.channels == 0) return "empty tile";
  if (a.pixels > 1 && a.out_pixel_stride < a.channels) {
    return fmt::format("out_pixel_stride {} < channels {}: pixels would overlap",
                       a.out_pixel_stride, a.channels);
  }
  if (a.fp16 && a.use_table) return "fp16 with use_table";
  return "";
}

namespace {

// The im2col row of output pixel (oh, ow): kernel_h * kernel_w * in_c values, kernel-major.
void GatherWindow(const ConvArgs& c, std::span<const int8_t> input, uint32_t oh, uint32_t ow,
                  int8_t* row) {
  for (uint32_t kh = 0; kh < c.kernel_h; ++kh) {
    const int64_t y = int64_t{oh} * c.stride_h + int64_t{kh} * c.dilation_h - c.pad_top;
    for (uint32_t kw = 0; kw < c.kernel_w; ++kw) {
      const int64_t x = int64_t{ow} * c.stride_w + int64_t{kw} * c.dilation_w - c.pad_left;
      int8_t* dst = row + (uint64_t{kh} * c.kernel_w + kw) * c.in_c;
      if (y < 0 || y >= c.in_h || x < 0 || x >= c.in_w) {
        std::fill(dst, dst + c.in_c, static_cast<int8_t>(c.pad_value));
      } else {
        const int8_t* src = input.data() + (uint64_t(y) * c.in_w + uint64_t(x)) * c.in_c;
        std::copy(src, src + c.in_c, dst);
      }
    }
  }
}

// (a - za) x (b - zb): 9-bit operands, the product fits int32.
uint32_t Product(int8_t a, int32_t za, int8_t b, int32_t zb) {
  return static_cast<uint32_t>((int32_t{a} - za) * (int32_t{b} - zb));
}

// The sum over i < n of (a[i] - za) * (b[i * b_stride] - zb), modulo 2^32 as int32 adders wrap.
int32_t DotStrided(const int8_t* a, int32_t za, const int8_t* b, uint64_t b_stride, int32_t zb,
                   uint64_t n) {
  uint32_t sum = 0;
  for (uint64_t i = 0; i < n; ++i) sum += Product(a[i], za, b[i * b_stride], zb);
  return static_cast<int32_t>(sum);
}

// The sum over i < n of a[i] * b[i], modulo 2^32: int8 operands, a loop the compiler vectorises.
uint32_t DotInt8(const int8_t* a, const int8_t* b, uint64_t n) {
  uint32_t sum = 0;
  for (uint64_t i = 0; i < n; ++i) sum += static_cast<uint32_t>(int32_t{a[i]} * int32_t{b[i]});
  return sum;
}

// The sum over i < n of a[i], modulo 2^32.
uint32_t SumInt8(const int8_t* a, uint64_t n) {
  uint32_t sum = 0;
  for (uint64_t i = 0; i < n; ++i) sum += static_cast<uint32_t>(int32_t{a[i]});
  return sum;
}

// The accumulator entry after adding `sum` (or replacing it), modulo 2^32.
int32_t Accumulate(const ConvArgs& c, int32_t entry, int32_t sum) {
  if (!c.accumulate) return sum;
  return static_cast<int32_t>(static_cast<uint32_t>(entry) + static_cast<uint32_t>(sum));
}

}  // namespace

namespace {

// Depthwise: channel n of the output sees channel n of the input only.
void ComputeDepthwise(const ConvArgs& c, std::span<const int8_t> input,
                      std::span<const int8_t> weights, std::span<int32_t> acc) {
  const uint64_t taps = uint64_t{c.kernel_h} * c.kernel_w;
  std::vector<int8_t> window(taps * c.in_c);
  for (uint32_t oh = 0; oh < c.out_h; ++oh) {
    for (uint32_t ow = 0; ow < c.out_w; ++ow) {
      GatherWindow(c, input, oh, ow, window.data());  // [tap][channel]
      int32_t* out = acc.data() + (uint64_t{oh} * c.out_w + ow) * c.out_c;
      for (uint32_t n = 0; n < c.out_c; ++n) {
        uint32_t sum = 0;
        for (uint64_t t = 0; t < taps; ++t) {
          sum += Product(window[t * c.in_c + n], c.in_zero_point, weights[n * taps + t],
                         c.wt_zero_point);
        }
        out[n] = Accumulate(c, out[n], static_cast<int32_t>(sum));
      }
    }
  }
}

// Groups: output channel n sees the channels of its group only, [tap][channel] in the window.
void ComputeGrouped(const ConvArgs& c, std::span<const int8_t> input,
                    std::span<const int8_t> weights, std::span<int32_t> acc) {
  const uint64_t taps = uint64_t{c.kernel_h} * c.kernel_w;
  const uint32_t cg = c.in_c / c.groups, ng = c.out_c / c.groups;
  const uint64_t k = taps * cg;
  std::vector<int8_t> window(taps * c.in_c);
  for (uint32_t oh = 0; oh < c.out_h; ++oh) {
    for (uint32_t ow = 0; ow < c.out_w; ++ow) {
      GatherWindow(c, input, oh, ow, window.data());
      int32_t* out = acc.data() + (uint64_t{oh} * c.out_w + ow) * c.out_c;
      for (uint32_t n = 0; n < c.out_c; ++n) {
        const int8_t* in = window.data() + uint64_t{n / ng} * cg;
        const int8_t* w = weights.data() + n * k;
        uint32_t sum = 0;
        for (uint64_t t = 0; t < taps; ++t) {
          for (uint32_t i = 0; i < cg; ++i) {
            sum += Product(in[t * c.in_c + i], c.in_zero_point, w[t * cg + i], c.wt_zero_point);
          }
        }
        out[n] = Accumulate(c, out[n], static_cast<int32_t>(sum));
      }
    }
  }
}

}  // namespace

void ComputeConv(const ConvArgs& c, std::span<const int8_t> input, std::span<const int8_t> weights,
                 std::span<int32_t> acc) {
  if (c.fp16) {
    ComputeConvFp16(c, input, weights, acc);
    return;
  }
  if (c.weights_int4) {  // the same sums over the unpacked values
    const std::vector<int8_t> unpacked =
        UnpackInt4Rows(weights, c.out_c, ConvWeightRowValues(c));
    ConvArgs bytes = c;
    bytes.weights_int4 = false;
    ComputeConv(bytes, input, unpacked, acc);
    return;
  }
  if (c.depthwise) {
    ComputeDepthwise(c, input, weights, acc);
    return;
  }
  if (c.groups > 1) {
    ComputeGrouped(c, input, weights, acc);
    return;
  }
  const uint64_t k = uint64_t{c.kernel_h} * c.kernel_w * c.in_c;
  std::vector<int8_t> row(k);
  // With contiguous weight rows, the sum of (a - za) * (b - zb) is computed as
  // sum(a*b) - za*sum(b) - zb*sum(a) + k*za*zb: equal modulo 2^32 (ring arithmetic), and the
  // int8 dot product vectorises where the 9-bit differences did not (a full run's simulation is
  // mostly this loop; 0.63 s -> 0.3 s for resnet18). sum(b) is per weight row, sum(a) per window.
  const uint32_t za = static_cast<uint32_t>(c.in_zero_point);
  const uint32_t zb = static_cast<uint32_t>(c.wt_zero_point);
  std::vector<uint32_t> weight_sums(c.weights_kn ? 0 : c.out_c);
  for (uint32_t n = 0; n < weight_sums.size(); ++n) {
    weight_sums[n] = SumInt8(weights.data() + n * k, k);
  }
  const uint32_t zero_points = static_cast<uint32_t>(k) * za * zb;
  for (uint32_t oh = 0; oh < c.out_h; ++oh) {
    for (uint32_t ow = 0; ow < c.out_w; ++ow) {
      GatherWindow(c, input, oh, ow, row.data());
      int32_t* out = acc.data() + (uint64_t{oh} * c.out_w + ow) * c.out_c;
      const uint32_t window_sum = SumInt8(row.data(), k);
      for (uint32_t n = 0; n < c.out_c; ++n) {
        // Weight (n, i) is at n*k + i, or i*out_c + n with weights_kn.
        const int32_t sum =
            c.weights_kn
                ? DotStrided(row.data(), c.in_zero_point, weights.data() + n, c.out_c,
                             c.wt_zero_point, k)
                : static_cast<int32_t>(DotInt8(row.data(), weights.data() + n * k, k) -
                                       za * weight_sums[n] - zb * window_sum + zero_points);
        out[n] = Accumulate(c, out[n], sum);
      }
    }
  }
}

ActParams ReadActParams(std::span<const uint8_t> block, uint32_t channel) {
  auto word = [&](int i) {
    const uint8_t* p = block.data() + uint64_t{channel} * kActParamBytes + 4 * i;
    return static_cast<int32_t>(uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
                                uint32_t{p[3]} << 24);
  };
  return {word(0), word(1), word(2)};
}

void WriteActParams(std::span<uint8_t> block, uint32_t channel, const ActParams& params) {
  const int32_t words[3] = {params.bias, params.multiplier, params.shift};
  uint8_t* p = block.data() + uint64_t{channel} * kActParamBytes;
  for (int32_t w : words) {
    for (int b = 0; b < 4; ++b) *p++ = static_cast<uint8_t>(static_cast<uint32_t>(w) >> (8 * b));
  }
}

regs::ErrorCode ComputeAct(const ActArgs& a, std::span<const int32_t> acc,
                           std::span<const uint8_t> params, std::span<const int8_t> table,
                           std::vector<int8_t>& out) {
  if (a.fp16) {
    ComputeActFp16(a, acc, params, out);
    return regs::ErrorCode::kNone;
  }
  std::vector<ActParams> channel(a.channels);
  for (uint32_t n = 0; n < a.channels; ++n) {
    channel[n] = ReadActParams(params, n);
    if (channel[n].shift < kMinShift || channel[n].shift > kMaxShift) {
      return regs::ErrorCode::kBadParameter;
    }
  }
  out.resize(ActAccEntries(a));
  for (uint64_t m = 0; m < a.pixels; ++m) {
    for (uint32_t n = 0; n < a.channels; ++n) {
      const ActParams& p = channel[n];
      const uint64_t i = m * a.channels + n;
      out[i] = Requantize(acc[i], p.bias, p.multiplier, p.shift, a.out_zero_point, a.clamp_min,
                          a.clamp_max);
    }
  }
  if (a.use_table) {
    for (int8_t& v : out) v = table[LutIndex(v)];
  }
  return regs::ErrorCode::kNone;
}

int64_t RoundDiv(int64_t sum, int64_t count) {
  const int64_t num = 2 * sum + count, den = 2 * count;
  return num >= 0 ? num / den : -((-num + den - 1) / den);  // floor division
}

int64_t RescaledMean(int64_t sum, int64_t count, int32_t multiplier, int shift) {
  // In 128 bits: a CPU op's count is bounded only by its tensor, and a damaged binary must not
  // make this overflow.
  using I128 = __int128;
  const I128 num = 2 * I128{sum} * multiplier + count, den = 2 * I128{count};
  const I128 mean = num >= 0 ? num / den : -((-num + den - 1) / den);  // RoundDiv
  const I128 v = (mean + (I128{1} << (shift - 1))) >> shift;           // RoundingShift
  return static_cast<int64_t>(std::clamp<I128>(v, INT32_MIN, INT32_MAX));
}

int64_t RescaledReduction(int64_t sum, int64_t count, bool mean, int32_t multiplier, int shift) {
  if (mean) return RescaledMean(sum, count, multiplier, shift);
  return ApplyScale(static_cast<int32_t>(Clamp64(sum, INT32_MIN, INT32_MAX)), multiplier, shift);
}

namespace {

// The taps of window (oh, ow) inside the region, as (max, sum of x - zp, count inside).
struct WindowStats {
  int32_t max = -128;
  int64_t sum = 0;
  int64_t inside = 0;
};

WindowStats PoolWindow(const PoolArgs& p, std::span<const int8_t> input, uint32_t oh, uint32_t ow,
                       uint32_t c) {
  WindowStats w;
  for (uint32_t kh = 0; kh < p.kernel_h; ++kh) {
    const int64_t y = int64_t{oh} * p.stride_h + kh - p.pad_top;
    if (y < 0 || y >= p.in_h) continue;
    for (uint32_t kw = 0; kw < p.kernel_w; ++kw) {
      const int64_t x = int64_t{ow} * p.stride_w + kw - p.pad_left;
      if (x < 0 || x >= p.in_w) continue;
      const int32_t v = input[(uint64_t(y) * p.in_w + uint64_t(x)) * p.channels + c];
      w.max = std::max(w.max, v);
      w.sum += v - p.in_zero_point;
      ++w.inside;
    }
  }
  return w;
}

}  // namespace

namespace {

void ComputeSums(const PoolArgs& p, std::span<const int8_t> input, std::span<const int8_t> prior,
                 std::vector<int8_t>& out) {
  out.resize(PoolOutputBytes(p));
  for (uint32_t oh = 0; oh < p.out_h; ++oh) {
    for (uint32_t ow = 0; ow < p.out_w; ++ow) {
      for (uint32_t c = 0; c < p.channels; ++c) {
        const uint64_t i = (uint64_t{oh} * p.out_w + ow) * p.channels + c;
        const int64_t prior_sum = p.accumulate ? ReadInt32Le(prior, i) : 0;
        const int64_t sum = PoolWindow(p, input, oh, ow, c).sum + prior_sum;
        WriteInt32Le(out, i, static_cast<int32_t>(Clamp64(sum, INT32_MIN, INT32_MAX)));
      }
    }
  }
}

void ComputeMeansOfSums(const PoolArgs& p, std::span<const int8_t> sums, std::vector<int8_t>& out) {
  out.resize(PoolOutputBytes(p));
  const int64_t lo = std::max(p.clamp_min, -128), hi = std::min(p.clamp_max, 127);
  const int64_t count = int64_t{p.kernel_h} * p.kernel_w;
  for (uint64_t i = 0; i < out.size(); ++i) {
    const int64_t mean = RescaledMean(ReadInt32Le(sums, i), count, p.multiplier, int(p.shift));
    out[i] = static_cast<int8_t>(Clamp64(p.out_zero_point + mean, lo, hi));
  }
}

}  // namespace

int32_t ReadInt32Le(std::span<const int8_t> bytes, uint64_t i) {
  uint32_t v = 0;
  for (int b = 0; b < 4; ++b) v |= uint32_t(uint8_t(bytes[4 * i + b])) << (8 * b);
  return static_cast<int32_t>(v);
}
void WriteInt32Le(std::span<int8_t> bytes, uint64_t i, int32_t value) {
  for (int b = 0; b < 4; ++b) bytes[4 * i + b] = int8_t(uint32_t(value) >> (8 * b));
}

void ComputePool(const PoolArgs& p, std::span<const int8_t> input, std::vector<int8_t>& out) {
  ComputePool(p, input, {}, out);
}

void ComputePool(const PoolArgs& p, std::span<const int8_t> input, std::span<const int8_t> prior,
                 std::vector<int8_t>& out) {
  if (p.fp16) {
    ComputePoolFp16(p, input, out);
    return;
  }
  if (p.mode == uint32_t(PoolMode::kSum)) return ComputeSums(p, input, prior, out);
  if (p.mode == uint32_t(PoolMode::kMeanOfSums)) return ComputeMeansOfSums(p, input, out);
  out.resize(uint64_t{p.out_h} * p.out_w * p.channels);
  const int64_t lo = std::max(p.clamp_min, -128), hi = std::min(p.clamp_max, 127);
  for (uint32_t oh = 0; oh < p.out_h; ++oh) {
    for (uint32_t ow = 0; ow < p.out_w; ++ow) {
      for (uint32_t c = 0; c < p.channels; ++c) {
        const WindowStats w = PoolWindow(p, input, oh, ow, c);
        int64_t v = w.max;
        if (p.mode == uint32_t(PoolMode::kAverage)) {
          const int64_t count = p.count_include_pad ? int64_t{p.kernel_h} * p.kernel_w : w.inside;
          const int64_t mean =
              count > 0 ? RescaledMean(w.sum, count, p.multiplier, int(p.shift)) : 0;
          v = int64_t{p.out_zero_point} + mean;
        }
        out[(uint64_t{oh} * p.out_w + ow) * p.channels + c] =
            static_cast<int8_t>(Clamp64(v, lo, hi));
      }
    }
  }
}

}  // namespace npu::spec
