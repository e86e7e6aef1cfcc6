// RESIZE: the blend against hand-computed values (nearest, bilinear, rounding of negative halves,
// zero points), whole instructions on odd shapes with edge taps and pixel strides against an
// independent evaluation, the faults, and its accesses, footprint and cycles pinned by hand.
#include "tests/common/hand_config.h"
#include "hw/spec/resize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "hw/spec/config.h"
#include "hw/spec/footprint.h"
#include "hw/spec/timing_model.h"
#include "hw/spec/unit_accesses.h"

namespace npu::spec {
namespace {

using Bytes = std::vector<int8_t>;

std::vector<uint8_t> Taps(const std::vector<ResizeTap>& taps) {
  std::vector<uint8_t> bytes(taps.size() * kResizeTapBytes);
  for (uint32_t i = 0; i < taps.size(); ++i) WriteResizeTap(bytes, i, taps[i]);
  return bytes;
}

TEST(ResizeBlend, NearestCopiesTheFirstTap) {
  for (int x = -128; x < 128; x += 17) {
    EXPECT_EQ(ResizeBlend(int8_t(x), 99, -99, 5, 0, 0, -7), x);
  }
  // Weight 1024 takes the second tap only.
  EXPECT_EQ(ResizeBlend(1, 2, 3, 4, 1024, 1024, 0), 4);
}

TEST(ResizeBlend, BilinearRoundsHalvesTowardsPositiveInfinity) {
  // Halfway between -3 and -2 is -2.5 -> -2; between 2 and 3, 2.5 -> 3; between -3 and -4 -> -3.
  EXPECT_EQ(ResizeBlend(-3, -2, 0, 0, 0, 512, 0), -2);
  EXPECT_EQ(ResizeBlend(2, 3, 0, 0, 0, 512, 0), 3);
  EXPECT_EQ(ResizeBlend(-3, -4, 0, 0, 0, 512, 0), -3);
  // With zero point 1 the blend is of -4 and -3: -3.5 -> -3, plus 1.
  EXPECT_EQ(ResizeBlend(-3, -2, 0, 0, 0, 512, 1), -2);
  // top = 0*256 + 100*768 = 76800, bottom = -100*256 + 50*768 = 12800;
  // (76800*768 + 12800*256) / 2^20 = 59.375 -> 59.
  EXPECT_EQ(ResizeBlend(0, 100, -100, 50, 256, 768, 0), 59);
  // The extremes stay in range: a blend lies between its taps.
  EXPECT_EQ(ResizeBlend(-128, -128, -128, -128, 333, 777, 127), -128);
  EXPECT_EQ(ResizeBlend(127, 127, 127, 127, 1, 1023, -128), 127);
}

TEST(ResizeTaps, AreThreeLittleEndianHalfWords) {
  const std::vector<uint8_t> bytes = Taps({{0x0102, 0x0304, 1024}, {7, 65535, 0}});
  EXPECT_EQ(bytes, (std::vector<uint8_t>{2, 1, 4, 3, 0, 4, 7, 0, 255, 255, 0, 0}));
  EXPECT_EQ(ReadResizeTap(bytes, 1), (ResizeTap{7, 65535, 0}));
}

// 2x2 -> 3x3 with corner-aligned taps (0,0,0), (0,1,512), (1,1,0) on both axes.
TEST(ComputeResize, TwoByTwoToThreeByThree) {
  ResizeArgs r;
  r.in_h = r.in_w = 2, r.channels = 1, r.in_pixel_stride = 1;
  r.out_h = r.out_w = 3, r.out_pixel_stride = 1;
  const std::vector<uint8_t> taps = Taps({{0, 0, 0}, {0, 1, 512}, {1, 1, 0}});
  ASSERT_EQ(CheckResize(r), "");
  ASSERT_EQ(CheckResizeTaps(r, taps, taps), "");
  Bytes out;
  ComputeResize(r, Bytes{0, 100, -100, 50}, taps, taps, out);
  // Centre: (0*512 + 100*512)*512 + (-100*512 + 50*512)*512 = 12.5 * 2^20 -> 13.
  EXPECT_EQ(out, (Bytes{0, 50, 100, -50, 13, 75, -100, -25, 50}));
}

// The four-tap weighted sum with exact double arithmetic (every term is an integer below 2^53),
// rounded half up: written apart from ResizeBlend's nested form.
int8_t Independent(const Bytes& in, uint32_t w, uint32_t c, uint32_t ch, ResizeTap row,
                   ResizeTap col, int32_t z) {
  const uint32_t ys[2] = {row.i0, row.i1}, xs[2] = {col.i0, col.i1};
  const double wy[2] = {1024.0 - row.w1, double(row.w1)}, wx[2] = {1024.0 - col.w1, double(col.w1)};
  double sum = 0;
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 2; ++b) sum += (in[(ys[a] * w + xs[b]) * c + ch] - z) * wy[a] * wx[b];
  }
  return static_cast<int8_t>(z + std::floor(sum / 1048576.0 + 0.5));
}

TEST(ComputeResize, OddShapesWithEdgeTapsMatchAnIndependentSum) {
  // 3x5x3 -> 4x7: rows and columns sampled with edge taps (i0 == i1 == last) and random weights.
  std::mt19937 rng(3);
  ResizeArgs r;
  r.in_h = 3, r.in_w = 5, r.channels = 3, r.in_pixel_stride = 3;
  r.out_h = 4, r.out_w = 7, r.out_pixel_stride = 3, r.zero_point = -9;
  auto random_taps = [&](uint32_t n, uint32_t extent) {
    std::vector<ResizeTap> t;
    for (uint32_t i = 0; i + 1 < n; ++i) {
      const uint32_t i0 = uint32_t(rng() % extent);
      t.push_back({i0, std::min(i0 + 1, extent - 1), uint32_t(rng() % 1025)});
    }
    t.push_back({extent - 1, extent - 1, uint32_t(rng() % 1025)});  // the edge: both taps the last
    return t;
  };
  const std::vector<ResizeTap> rows = random_taps(4, 3), cols = random_taps(7, 5);
  Bytes in(45);
  for (int8_t& v : in) v = int8_t(rng() % 256 - 128);
  Bytes out;
  ComputeResize(r, in, Taps(rows), Taps(cols), out);
  ASSERT_EQ(out.size(), 4u * 7 * 3);
  for (uint32_t oy = 0; oy < 4; ++oy) {
    for (uint32_t ox = 0; ox < 7; ++ox) {
      for (uint32_t ch = 0; ch < 3; ++ch) {
        EXPECT_EQ(out[(oy * 7 + ox) * 3 + ch], Independent(in, 5, 3, ch, rows[oy], cols[ox], -9))
            << oy << "," << ox << "," << ch;
      }
    }
  }
}

TEST(CheckResize, RefusesEmptyShapesAndOverlappingPixels) {
  ResizeArgs r;
  r.in_h = 2, r.in_w = 2, r.channels = 4, r.in_pixel_stride = 4;
  r.out_h = 3, r.out_w = 3, r.out_pixel_stride = 4;
  EXPECT_EQ(CheckResize(r), "");
  ResizeArgs bad = r;
  bad.channels = 0;
  EXPECT_EQ(CheckResize(bad), "empty input region");
  bad = r, bad.out_w = 0;
  EXPECT_EQ(CheckResize(bad), "empty output");
  bad = r, bad.in_pixel_stride = 3;
  EXPECT_EQ(CheckResize(bad), "in_pixel_stride 3 < channels 4: pixels would overlap");
  bad = r, bad.out_pixel_stride = 2;
  EXPECT_EQ(CheckResize(bad), "out_pixel_stride 2 < channels 4: pixels would overlap");
  bad = r, bad.in_h = bad.in_w = 1, bad.in_pixel_stride = 0;  // one pixel: no stride needed
  EXPECT_EQ(CheckResize(bad), "");
}

TEST(CheckResizeTaps, NamesTheFirstTapOutsideTheRegion) {
  ResizeArgs r;
  r.in_h = 2, r.in_w = 3, r.channels = 1, r.out_h = 2, r.out_w = 2;
  const std::vector<uint8_t> rows = Taps({{0, 1, 10}, {1, 1, 0}});
  EXPECT_EQ(CheckResizeTaps(r, rows, Taps({{0, 2, 1024}, {2, 2, 0}})), "");
  EXPECT_EQ(CheckResizeTaps(r, Taps({{0, 1, 10}, {1, 2, 0}}), Taps({{0, 2, 0}, {2, 2, 0}})),
            "row tap 1 (1, 2, weight 0) outside the 2 rows or weighing over 1024");
  EXPECT_EQ(CheckResizeTaps(r, rows, Taps({{3, 0, 0}, {2, 2, 0}})),
            "column tap 0 (3, 0, weight 0) outside the 3 columns or weighing over 1024");
  EXPECT_EQ(CheckResizeTaps(r, rows, Taps({{0, 1, 0}, {2, 2, 1025}})),
            "column tap 1 (2, 2, weight 1025) outside the 3 columns or weighing over 1024");
}

// The default config (16 banks x 16 B, 32 lanes, pipeline 4) with `banks` banks.
NpuConfig Banks(uint32_t banks) {
  NpuConfig c = ::npu::testing::HandConfig();
  c.mutable_sram()->set_banks(banks);
  return c;
}

// 3x5 pixels of a 4-channel tensor's first 2 channels -> 4x7 pixels written 3 bytes apart.
Instruction StridedResize() {
  ResizeArgs r;
  r.row_taps_addr = 0, r.col_taps_addr = 64, r.in_addr = 4096, r.out_addr = 8192;
  r.in_h = 3, r.in_w = 5, r.channels = 2, r.in_pixel_stride = 4;
  r.out_h = 4, r.out_w = 7, r.out_pixel_stride = 3;
  return {Opcode::kResize, 0, 0, r};
}

TEST(ResizeAccesses, TapsThenInputPixelsThenOutputPixels) {
  const std::vector<SramAccess> expected = {
      {0, 24, 1, 0, false}, {64, 42, 1, 0, false}, {4096, 2, 15, 4, false}, {8192, 2, 28, 3, true}};
  EXPECT_EQ(UnitSramAccesses(StridedResize()), expected);
  // Dense pixels are one run each way.
  Instruction dense = StridedResize();
  auto& r = std::get<ResizeArgs>(dense.args);
  r.in_pixel_stride = r.out_pixel_stride = 2;
  EXPECT_EQ(UnitSramAccesses(dense)[2], (SramAccess{4096, 30, 1, 0, false}));
  EXPECT_EQ(UnitSramAccesses(dense)[3], (SramAccess{8192, 56, 1, 0, true}));
}

TEST(ResizeAccesses, FootprintsAreTheHullsOfTheAccesses) {
  const std::vector<Footprint> f = Footprints(StridedResize());
  ASSERT_EQ(f.size(), 4u);
  EXPECT_TRUE(f[0].begin == 0 && f[0].end == 24 && !f[0].write);
  EXPECT_TRUE(f[1].begin == 64 && f[1].end == 106 && !f[1].write);
  EXPECT_TRUE(f[2].begin == 4096 && f[2].end == 4096 + 14 * 4 + 2 && !f[2].write);
  EXPECT_TRUE(f[3].begin == 8192 && f[3].end == 8192 + 27 * 3 + 2 && f[3].write);
  EXPECT_TRUE(f[3].space == Space::kSram);
}

TEST(ResizeTiming, FourTapsPerOutputElementOrTheSram) {
  // Vector: 4 + ceil(4 * 4*7*2 / 32) = 11 cycles.
  EXPECT_EQ(ActComputeCycles(Banks(16), VectorLaneOps(StridedResize())), 11u);
  // SRAM words: row taps 2, column taps 3 (bytes 64..105), input 15 runs in a word each, output
  // 28 runs of which 2 straddle a word boundary (at bytes 8207 and 8255): 30.
  // 16 banks: 1 + 1 + 1 + 2 = 5 cycles, under the vector unit's 11.
  EXPECT_EQ(UnitSramIdealCycles(Banks(16), StridedResize()), 5u);
  EXPECT_EQ(IdealCycles(Banks(16), StridedResize()), 11u);
  // One bank: 2 + 3 + 15 + 30 = 50 cycles of SRAM.
  EXPECT_EQ(IdealCycles(Banks(1), StridedResize()), 50u);
  // 8 lanes: 4 + 224 / 8 = 32 vector cycles (the taps' weights, 0 for nearest, do not matter).
  NpuConfig narrow = Banks(16);
  narrow.mutable_act()->set_lanes(8);
  EXPECT_EQ(IdealCycles(narrow, StridedResize()), 32u);
}

TEST(ResizeRowBlends, CountsTheSourceRowsBlendedWithTwoHeld) {
  // A 2x upscale's rows (half-pixel: 0,0 | 0,1 | 0,1 | 1,2 | 1,2 | 2,2): rows 0, 1, 2 blended once.
  EXPECT_EQ(ResizeRowBlends(std::vector<ResizeTap>{
                {0, 0, 0}, {0, 1, 256}, {0, 1, 768}, {1, 2, 256}, {1, 2, 768}, {2, 2, 0}}),
            3u);
  // A row reading neither held row replaces the first; one reading one keeps it.
  EXPECT_EQ(ResizeRowBlends(std::vector<ResizeTap>{{0, 1, 0}, {2, 3, 0}, {0, 1, 0}}), 6u);
  EXPECT_EQ(ResizeRowBlends(std::vector<ResizeTap>{{0, 1, 0}, {1, 2, 0}, {0, 1, 0}}), 4u);
  EXPECT_EQ(ResizeRowBlends(std::vector<ResizeTap>{{5, 5, 0}, {5, 5, 0}}), 1u);
  EXPECT_EQ(ResizeRowBlends(std::vector<ResizeTap>{}), 0u);
}

TEST(CheckResizeTaps, HeldRowsMustCountTheRowsTheirTapsBlend) {
  ResizeArgs r;
  r.in_h = 3, r.in_w = 1, r.channels = 1, r.out_h = 4, r.out_w = 1;
  const std::vector<uint8_t> rows = Taps({{0, 1, 10}, {0, 1, 500}, {1, 2, 0}, {1, 2, 9}});
  const std::vector<uint8_t> cols = Taps({{0, 0, 0}});
  EXPECT_EQ(CheckResizeTaps(r, rows, cols), "");  // 0: no held rows
  r.row_blends = 3;
  EXPECT_EQ(CheckResizeTaps(r, rows, cols), "");
  r.row_blends = 4;
  EXPECT_EQ(CheckResizeTaps(r, rows, cols), "row_blends 4 but its row taps blend 3 source rows");
}

TEST(ResizeTiming, HeldRowsTakeTwoTapsPerBlendedRowElementAndPerOutputElement) {
  // StridedResize's 4 output rows with 3 source rows blended: 2 * (3 + 4) * 7*2 = 196 lane
  // operations where four taps an element take 224: 4 + ceil(196 / 32) = 11 cycles; on 8 lanes
  // 4 + 196 / 8 = 29 (32 without held rows).
  Instruction held = StridedResize();
  std::get<ResizeArgs>(held.args).row_blends = 3;
  EXPECT_EQ(VectorLaneOps(held), 196u);
  EXPECT_EQ(VectorLaneOps(StridedResize()), 224u);
  NpuConfig narrow = Banks(16);
  narrow.mutable_act()->set_lanes(8);
  EXPECT_EQ(IdealCycles(narrow, held), 29u);
}

}  // namespace
}  // namespace npu::spec
