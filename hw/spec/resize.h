// RESIZE: what the vector unit's bilinear / nearest resampling computes (docs/isa.md), and the
// one definition of its per-element arithmetic, ResizeBlend, which the integer reference
// (compiler/qinterp) and the control core's kernel (firmware/cpu) call too, so the NPU, the
// reference and the CPU fallback cannot round differently.
//
// Sampling is separable and given as data: per output row a row tap (y0, y1, wy) and per output
// column a column tap (x0, x1, wx), indices into the input and the second index's weight in
// 1/1024ths. Nearest is weight 0 (or 1024); the compiler computes the taps from the float op's
// coordinate transformation (compiler/interp/resize_taps.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hw/spec/isa.h"

namespace npu::spec {

// The weight of a whole tap: weights count 1/kResizeWeightOne.
inline constexpr int32_t kResizeWeightOne = 1024;

// out = clamp(z + RoundDiv(top*(1024 - wy) + bottom*wy, 2^20), -128, 127) with
// top = (x00 - z)*(1024 - wx) + (x01 - z)*wx and bottom likewise from x10, x11: the four
// neighbours (row 0/1, column 0/1) blended in 64-bit integers, rounded half towards +infinity.
// wy and wx must be in 0..1024.
int8_t ResizeBlend(int8_t x00, int8_t x01, int8_t x10, int8_t x11, int32_t wy, int32_t wx,
                   int32_t zero_point);

// A tap as RESIZE reads it from SRAM: three little-endian uint16 (i0, i1, w1).
struct ResizeTap {
  uint32_t i0 = 0, i1 = 0;  // source indices inside the region
  uint32_t w1 = 0;          // i1's weight in 1/1024ths; i0 weighs 1024 - w1
  bool operator==(const ResizeTap&) const = default;
};
inline constexpr uint32_t kResizeTapBytes = 6;
ResizeTap ReadResizeTap(std::span<const uint8_t> taps, uint32_t index);
void WriteResizeTap(std::span<uint8_t> taps, uint32_t index, const ResizeTap& tap);

// Operand sizes: the taps tables (out_h resp. out_w taps), the input pixels (in_h*in_w of
// `channels` bytes, read dense), and the spans from in_addr / out_addr to the last byte.
uint64_t ResizeRowTapBytes(const ResizeArgs& resize);
uint64_t ResizeColTapBytes(const ResizeArgs& resize);
uint64_t ResizeInputBytes(const ResizeArgs& resize);
uint64_t ResizeInputSpan(const ResizeArgs& resize);
uint64_t ResizeOutputSpan(const ResizeArgs& resize);

// The source rows a RESIZE with held rows blends horizontally for `row_taps` (its output rows'
// taps, in order): the lanes hold two blended rows; an output row blends each of its two source
// rows (one if i0 == i1) that is not held, replacing the held row it does not read. Each held
// row then serves every output row that reads it with a vertical blend alone (2 taps an element
// where blending both neighbours' pairs takes 4): an 8x upscale's band of 16 output rows blends
// 3 or 4 source rows, 40 taps a column where it took 64.
uint32_t ResizeRowBlends(std::span<const ResizeTap> row_taps);

// Field sanity the encoding cannot express: an empty region or output, pixel strides below
// `channels` (pixels would overlap). Empty when valid.
std::string CheckResize(const ResizeArgs& resize);
// The taps read from SRAM: an index outside the region or a weight over 1024 names the tap; a
// nonzero row_blends other than the row taps' ResizeRowBlends names both. Empty when valid.
std::string CheckResizeTaps(const ResizeArgs& resize, std::span<const uint8_t> row_taps,
                            std::span<const uint8_t> col_taps);

// Dense [out_h*out_w][channels] int8 result (the unit writes it with out_pixel_stride); `input`
// is the region's pixels dense (ResizeInputBytes). Requires CheckResize and CheckResizeTaps.
void ComputeResize(const ResizeArgs& resize, std::span<const int8_t> input,
                   std::span<const uint8_t> row_taps, std::span<const uint8_t> col_taps,
                   std::vector<int8_t>& out);

}  // namespace npu::spec
