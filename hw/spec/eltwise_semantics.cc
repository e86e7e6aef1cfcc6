// The functional semantics of ELTWISE and LUT.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "hw/spec/arith.h"
#include "hw/spec/fp16.h"
#include "hw/spec/fp16_semantics.h"
#include "hw/spec/semantics.h"

namespace npu::spec {
namespace {

bool PerChannelOrPixel(const EltwiseArgs& e) {
  return e.broadcast == uint32_t(Broadcast::kChannel) || e.broadcast == uint32_t(Broadcast::kPixel);
}

}  // namespace

// The b index element i reads.
uint64_t EltwiseBIndex(const EltwiseArgs& e, uint64_t i) {
  switch (static_cast<Broadcast>(e.broadcast)) {
    case Broadcast::kNone:
      return i;
    case Broadcast::kChannel:
      return i % e.channels;
    case Broadcast::kPixel:
      return i / e.channels;
    case Broadcast::kScalar:
      return 0;
  }
  return 0;
}

namespace {

// f(A, B) of docs/isa.md, before the output zero point and the clamp.
int64_t Combine(const EltwiseArgs& e, int64_t a, int64_t b) {
  const int shift = static_cast<int>(e.shift);
  switch (static_cast<EltwiseOp>(e.op)) {
    case EltwiseOp::kAdd:
      return RoundingShift(a * e.a_multiplier + b * e.b_multiplier, shift);
    case EltwiseOp::kMul:
      return ApplyScale(static_cast<int32_t>(a * b), e.a_multiplier, shift);
    case EltwiseOp::kMax:
      return RoundingShift(std::max(a * e.a_multiplier, b * e.b_multiplier), shift);
    case EltwiseOp::kMin:
      return RoundingShift(std::min(a * e.a_multiplier, b * e.b_multiplier), shift);
  }
  return 0;
}

}  // namespace

uint64_t EltwiseBValues(const EltwiseArgs& e) {
  switch (static_cast<Broadcast>(e.broadcast)) {
    case Broadcast::kNone:
      return e.count;
    case Broadcast::kChannel:
      return e.channels;
    case Broadcast::kPixel:
      return e.channels == 0 ? 0 : e.count / e.channels;
    case Broadcast::kScalar:
      return 1;
  }
  return 0;
}

uint64_t EltwiseBBytes(const EltwiseArgs& e) { return EltwiseBValues(e) * ElementBytes(e.fp16); }
uint64_t EltwiseBytes(const EltwiseArgs& e) { return uint64_t{e.count} * ElementBytes(e.fp16); }
uint64_t EltwiseOutBytes(const EltwiseArgs& e) {
  return uint64_t{e.count} * ElementBytes(e.fp16 && !e.int8_out);
}
float EltwiseInt8OutScale(const EltwiseArgs& e) {
  return BitsToFloat(static_cast<uint32_t>(e.a_multiplier));
}
uint64_t LutTableBytes(const LutArgs& l) {
  return l.bypass ? 0 : uint64_t{kLutEntries} * ElementBytes(l.fp16_out);
}
uint64_t LutOutputBytes(const LutArgs& l) { return uint64_t{l.count} * ElementBytes(l.fp16_out); }
uint64_t LutPixels(const LutArgs& l) { return l.channels == 0 ? 1 : l.count / l.channels; }
uint64_t LutInputSpan(const LutArgs& l) {
  if (l.channels == 0 || l.count == 0) return l.count;
  return (LutPixels(l) - 1) * l.in_pixel_stride + l.channels;
}
uint64_t LutOutputSpan(const LutArgs& l) {
  if (l.channels == 0 || l.count == 0) return LutOutputBytes(l);
  return (LutPixels(l) - 1) * l.out_pixel_stride + uint64_t{l.channels - 1} * l.out_elem_stride +
         1;
}

std::string CheckEltwise(const EltwiseArgs& e) {
  if (e.count == 0) return "empty eltwise";
  if (e.fp16_relu && !e.fp16) return "fp16_relu without fp16";
  if (e.int8_out && !e.fp16) return "int8_out without fp16";
  if (e.int8_out) {
    const float inv_scale = EltwiseInt8OutScale(e);
    if (!std::isfinite(inv_scale) || !(inv_scale > 0.0f)) {
      return fmt::format("int8_out with a_multiplier {:#010x}: not a finite FP32 value above 0",
                         static_cast<uint32_t>(e.a_multiplier));
    }
  }
  if (!e.fp16 && (e.shift < kMinShift || e.shift > kMaxShift)) {
    return fmt::format("eltwise shift {} outside 1..62", e.shift);
  }
  if (PerChannelOrPixel(e) && e.channels == 0) return "broadcast per channel or pixel, channels 0";
  if (PerChannelOrPixel(e) && e.count % e.channels != 0) {
    return fmt::format("count {} is not a whole number of pixels of {} channels", e.count,
                       e.channels);
  }
  if (!e.fp16 && e.op == uint32_t(EltwiseOp::kMul) && e.b_multiplier != 0) {
    return fmt::format("mul with b_multiplier {} (must be 0)", e.b_multiplier);
  }
  return "";
}

std::string CheckLut(const LutArgs& l) {
  if (l.count == 0) return "empty lut";
  if (l.bypass && l.fp16_out) return "bypass with fp16_out";
  if (l.channels == 0) {
    if (l.in_pixel_stride != 0 || l.out_pixel_stride != 0 || l.out_elem_stride != 0) {
      return "pixel or element strides without channels";
    }
    return "";
  }
  if (l.count % l.channels != 0) {
    return fmt::format("count {} is not a multiple of channels {}", l.count, l.channels);
  }
  if (l.fp16_out) return "channels with fp16_out";
  if (l.out_elem_stride == 0) return "channels with out_elem_stride 0";
  const uint64_t pixel_span = uint64_t{l.channels - 1} * l.out_elem_stride + 1;
  if (LutPixels(l) > 1 && (l.in_pixel_stride < l.channels || l.out_pixel_stride < pixel_span)) {
    return fmt::format(
        "pixel strides {} in, {} out below a pixel's {} bytes in and {} out", l.in_pixel_stride,
        l.out_pixel_stride, l.channels, pixel_span);
  }
  return "";
}

void ComputeEltwise(const EltwiseArgs& e, std::span<const int8_t> a, std::span<const int8_t> b,
                    std::vector<int8_t>& out) {
  if (e.fp16) {
    ComputeEltwiseFp16(e, a, b, out);
    return;
  }
  out.resize(e.count);
  const int64_t lo = std::max(e.clamp_min, -128), hi = std::min(e.clamp_max, 127);
  for (uint64_t i = 0; i < e.count; ++i) {
    const int64_t y =
        Combine(e, int64_t{a[i]} - e.a_zero_point, int64_t{b[EltwiseBIndex(e, i)]} - e.b_zero_point);
    out[i] = static_cast<int8_t>(Clamp64(y + e.out_zero_point, lo, hi));
  }
}

void ComputeLut(const LutArgs& l, std::span<const int8_t> in, std::span<const int8_t> table,
                std::vector<int8_t>& out) {
  out.resize(LutOutputBytes(l));
  if (l.fp16_out) {  // FP16 entries pass through as bits, NaN payloads and all
    for (uint64_t i = 0; i < l.count; ++i) {
      StoreFp16(out.data(), i, LoadFp16(table.data(), LutIndex(in[i])));
    }
    return;
  }
  if (l.bypass) {
    std::copy(in.begin(), in.begin() + l.count, out.begin());
    return;
  }
  for (uint64_t i = 0; i < l.count; ++i) out[i] = table[LutIndex(in[i])];
}

}  // namespace npu::spec
