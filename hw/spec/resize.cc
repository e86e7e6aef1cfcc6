// The functional semantics of RESIZE and the resize blend.
#include "hw/spec/resize.h"

#include <fmt/format.h>

#include "hw/spec/arith.h"
#include "hw/spec/semantics.h"

namespace npu::spec {
namespace {

constexpr int64_t kBlendDivisor = int64_t{kResizeWeightOne} * kResizeWeightOne;  // 2^20

uint64_t Pixels(uint64_t h, uint64_t w) { return h * w; }

// The first bad tap of a table of `count` taps over an axis of `extent` positions, or "".
std::string BadTap(const char* axis, std::span<const uint8_t> taps, uint32_t count,
                   uint32_t extent) {
  for (uint32_t i = 0; i < count; ++i) {
    const ResizeTap t = ReadResizeTap(taps, i);
    if (t.i0 >= extent || t.i1 >= extent || t.w1 > uint32_t(kResizeWeightOne)) {
      return fmt::format("{} tap {} ({}, {}, weight {}) outside the {} {}s or weighing over {}",
                         axis, i, t.i0, t.i1, t.w1, extent, axis, kResizeWeightOne);
    }
  }
  return "";
}

}  // namespace

int8_t ResizeBlend(int8_t x00, int8_t x01, int8_t x10, int8_t x11, int32_t wy, int32_t wx,
                   int32_t zero_point) {
  const int64_t z = zero_point;
  const int64_t top = (x00 - z) * (kResizeWeightOne - wx) + (x01 - z) * wx;
  const int64_t bottom = (x10 - z) * (kResizeWeightOne - wx) + (x11 - z) * wx;
  const int64_t v = z + RoundDiv(top * (kResizeWeightOne - wy) + bottom * wy, kBlendDivisor);
  return static_cast<int8_t>(Clamp64(v, -128, 127));
}

ResizeTap ReadResizeTap(std::span<const uint8_t> taps, uint32_t index) {
  const uint8_t* p = taps.data() + uint64_t{index} * kResizeTapBytes;
  auto half = [&](int k) { return uint32_t{p[2 * k]} | uint32_t{p[2 * k + 1]} << 8; };
  return {half(0), half(1), half(2)};
}

void WriteResizeTap(std::span<uint8_t> taps, uint32_t index, const ResizeTap& tap) {
  uint8_t* p = taps.data() + uint64_t{index} * kResizeTapBytes;
  for (const uint32_t v : {tap.i0, tap.i1, tap.w1}) {
    *p++ = static_cast<uint8_t>(v);
    *p++ = static_cast<uint8_t>(v >> 8);
  }
}

uint64_t ResizeRowTapBytes(const ResizeArgs& r) { return uint64_t{r.out_h} * kResizeTapBytes; }
uint64_t ResizeColTapBytes(const ResizeArgs& r) { return uint64_t{r.out_w} * kResizeTapBytes; }
uint64_t ResizeInputBytes(const ResizeArgs& r) { return Pixels(r.in_h, r.in_w) * r.channels; }

uint64_t ResizeInputSpan(const ResizeArgs& r) {
  const uint64_t pixels = Pixels(r.in_h, r.in_w);
  return pixels == 0 ? 0 : (pixels - 1) * r.in_pixel_stride + r.channels;
}

uint64_t ResizeOutputSpan(const ResizeArgs& r) {
  const uint64_t pixels = Pixels(r.out_h, r.out_w);
  return pixels == 0 ? 0 : (pixels - 1) * r.out_pixel_stride + r.channels;
}

std::string CheckResize(const ResizeArgs& r) {
  if (r.in_h == 0 || r.in_w == 0 || r.channels == 0) return "empty input region";
  if (r.out_h == 0 || r.out_w == 0) return "empty output";
  if (Pixels(r.in_h, r.in_w) > 1 && r.in_pixel_stride < r.channels) {
    return fmt::format("in_pixel_stride {} < channels {}: pixels would overlap", r.in_pixel_stride,
                       r.channels);
  }
  if (Pixels(r.out_h, r.out_w) > 1 && r.out_pixel_stride < r.channels) {
    return fmt::format("out_pixel_stride {} < channels {}: pixels would overlap",
                       r.out_pixel_stride, r.channels);
  }
  return "";
}

uint32_t ResizeRowBlends(std::span<const ResizeTap> row_taps) {
  constexpr uint32_t kNone = UINT32_MAX;
  uint32_t held[2] = {kNone, kNone}, blends = 0;
  for (const ResizeTap& t : row_taps) {
    for (const uint32_t row : {t.i0, t.i1}) {
      if (row == held[0] || row == held[1]) continue;
      ++blends;
      const uint32_t other = row == t.i0 ? t.i1 : t.i0;  // the row this output row reads too
      held[held[0] == other ? 1 : 0] = row;
    }
  }
  return blends;
}

std::string CheckResizeTaps(const ResizeArgs& r, std::span<const uint8_t> row_taps,
                            std::span<const uint8_t> col_taps) {
  std::string bad = BadTap("row", row_taps, r.out_h, r.in_h);
  if (bad.empty()) bad = BadTap("column", col_taps, r.out_w, r.in_w);
  if (!bad.empty() || r.row_blends == 0) return bad;
  std::vector<ResizeTap> rows(r.out_h);
  for (uint32_t oy = 0; oy < r.out_h; ++oy) rows[oy] = ReadResizeTap(row_taps, oy);
  const uint32_t blends = ResizeRowBlends(rows);
  return blends == r.row_blends ? ""
                                : fmt::format("row_blends {} but its row taps blend {} source rows",
                                              r.row_blends, blends);
}

void ComputeResize(const ResizeArgs& r, std::span<const int8_t> input,
                   std::span<const uint8_t> row_taps, std::span<const uint8_t> col_taps,
                   std::vector<int8_t>& out) {
  out.resize(Pixels(r.out_h, r.out_w) * r.channels);
  std::vector<ResizeTap> cols(r.out_w);
  for (uint32_t ox = 0; ox < r.out_w; ++ox) cols[ox] = ReadResizeTap(col_taps, ox);
  auto pixel = [&](uint32_t y, uint32_t x) {
    return input.data() + (uint64_t{y} * r.in_w + x) * r.channels;
  };
  int8_t* y = out.data();
  for (uint32_t oy = 0; oy < r.out_h; ++oy) {
    const ResizeTap row = ReadResizeTap(row_taps, oy);
    for (const ResizeTap& col : cols) {
      const int8_t *p00 = pixel(row.i0, col.i0), *p01 = pixel(row.i0, col.i1);
      const int8_t *p10 = pixel(row.i1, col.i0), *p11 = pixel(row.i1, col.i1);
      for (uint32_t c = 0; c < r.channels; ++c) {
        *y++ = ResizeBlend(p00[c], p01[c], p10[c], p11[c], int32_t(row.w1), int32_t(col.w1),
                           r.zero_point);
      }
    }
  }
}

}  // namespace npu::spec
