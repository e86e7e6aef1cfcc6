// RESIZE layers in the single-layer compiler: the layer's checks, tap windows, the taps constant
// packed relative to each tile's window (by hand), the staged search (channel blocks read in
// place through the pixel stride when the input is on chip) and its error.
#include "compiler/tiling/resize_tiling.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "compiler/layer/resize_layer.h"
#include "compiler/schedule/resize_emitter.h"
#include "hw/spec/config.h"
#include "hw/spec/timing_model.h"

namespace npu::compiler {
namespace {

using spec::ResizeTap;

void ExpectError(const Status& s, ErrorKind kind, const std::string& needle) {
  EXPECT_EQ(s.kind(), kind) << s.message();
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

// 4x3 -> 4x2: rows sampled between neighbours, columns at 0.5 and the last.
ResizeLayer Small() {
  ResizeLayer l;
  l.name = "up";
  l.in_h = 4, l.in_w = 3, l.channels = 5, l.out_h = 4, l.out_w = 2;
  l.row_taps = {{0, 1, 100}, {1, 2, 200}, {2, 3, 300}, {3, 3, 0}};
  l.col_taps = {{0, 1, 512}, {2, 2, 0}};
  return l;
}

TEST(ResizeLayer, ChecksNameTheLayerAndWhatIsWrong) {
  EXPECT_TRUE(CheckResizeLayer(Small()).ok());
  EXPECT_FALSE(Small().Nearest());
  ResizeLayer l = Small();
  l.out_h = 0;
  ExpectError(CheckResizeLayer(l), ErrorKind::kInvalidArgument, "layer 'up': out_h = 0");
  l = Small(), l.col_taps.pop_back();
  ExpectError(CheckResizeLayer(l), ErrorKind::kInvalidArgument, "1 column taps for 2 output");
  l = Small(), l.row_taps[2].i1 = 4;
  ExpectError(CheckResizeLayer(l), ErrorKind::kInvalidArgument,
              "row tap 2 (2, 4, weight 300) outside the 4 input rows");
  l = Small(), l.col_taps[0].w1 = 1025;
  ExpectError(CheckResizeLayer(l), ErrorKind::kInvalidArgument, "weighing over 1024");
  l = Small(), l.zero_point = 128;
  EXPECT_EQ(CheckResizeLayer(l).kind(), ErrorKind::kInvalidArgument);
  // What RESIZE's 16-bit fields cannot hold goes to the control core.
  l = Small(), l.channels = 65536;
  ExpectError(CheckResizeLayer(l), ErrorKind::kUnimplemented, "channels = 65536");
  l = Small(), l.row_taps = {{0, 0, 0}, {1, 1, 1024}, {2, 2, 0}, {3, 3, 0}};
  l.col_taps = {{0, 0, 0}, {2, 2, 0}};
  EXPECT_TRUE(l.Nearest());
}

TEST(ResizeTiling, TapWindowsSpanTheIndicesInAnyOrder) {
  const std::vector<ResizeTap> taps = {{5, 6, 9}, {1, 1, 0}, {3, 2, 0}, {7, 7, 0}};
  EXPECT_EQ(TapWindow(taps, {0, 1}).begin, 5u);
  EXPECT_EQ(TapWindow(taps, {0, 1}).size, 2u);
  EXPECT_EQ(TapWindow(taps, {0, 3}).begin, 1u);
  EXPECT_EQ(TapWindow(taps, {0, 3}).size, 6u);
  EXPECT_EQ(TapWindow(taps, {2, 2}).begin, 2u);
  EXPECT_EQ(TapWindow(taps, {2, 2}).size, 6u);
}

std::vector<ResizeTap> Read(const std::vector<uint8_t>& bytes, uint32_t first, uint32_t n) {
  std::vector<ResizeTap> taps;
  for (uint32_t i = first; i < first + n; ++i) taps.push_back(spec::ReadResizeTap(bytes, i));
  return taps;
}

TEST(ResizeTiling, TapsArePackedRelativeToTheirTilesWindow) {
  const ResizeLayer l = Small();
  // Bands of 2 rows: band 0 reads rows 0..2, band 1 rows 2..3; the whole width reads from 0.
  ResizeTiling t{2, 2, 5, true, false, false};
  std::vector<uint8_t> bytes = PackResizeTaps(l, t);
  ASSERT_EQ(bytes.size(), ResizeTapsBytes(l));
  ASSERT_EQ(bytes.size(), 6u * 6);
  EXPECT_EQ(Read(bytes, 0, 4),
            (std::vector<ResizeTap>{{0, 1, 100}, {1, 2, 200}, {0, 1, 300}, {1, 1, 0}}));
  EXPECT_EQ(Read(bytes, 4, 2), l.col_taps);
  // Blocks of one column: block 1 reads column 2 alone.
  t.tile_ow = 1;
  bytes = PackResizeTaps(l, t);
  EXPECT_EQ(Read(bytes, 4, 2), (std::vector<ResizeTap>{{0, 1, 512}, {0, 0, 0}}));
}

TEST(ResizeTiling, AnOnChipInputIsReadInPlaceInChannelBlocks) {
  // 2x4x64 -> 4x8x64 under 600 bytes: one output row of every channel, double-buffered, is 1024
  // bytes; blocks of channels fit, read from the on-chip tensor through the pixel stride.
  ResizeLayer l;
  l.name = "blocks";
  l.in_h = 2, l.in_w = 4, l.channels = 64, l.out_h = 4, l.out_w = 8;
  l.row_taps = {{0, 0, 0}, {0, 1, 256}, {0, 1, 768}, {1, 1, 0}};
  for (uint32_t o = 0; o < 8; ++o) l.col_taps.push_back({o / 2, std::min(o / 2 + 1, 3u), 256});
  const spec::NpuConfig c = spec::DefaultConfig();
  StatusOr<VectorChoice<ResizeTiling>> choice = ChooseResizeTiling(c, l, {600, true, false});
  ASSERT_TRUE(choice.ok()) << choice.status().message();
  const ResizeTiling& t = choice->tiling;
  EXPECT_LT(t.tile_c, 64u);
  EXPECT_TRUE(t.input_on_chip && t.taps_once);
  EXPECT_LE(choice->plan.sram_bytes, 600u);
  const ResizeOperands ops{{true, 0x10000, 64, 0}, DramTensor(0, 64), 0x100};
  const uint32_t blocks = (64 + t.tile_c - 1) / t.tile_c, bands = (4 + t.tile_oh - 1) / t.tile_oh;
  uint32_t resizes = 0;
  for (const spec::Instruction& insn : EmitResize(l, t, choice->plan, ops)) {
    if (insn.opcode == spec::Opcode::kLoad) {
      // Only the taps are loaded: the input is read in place.
      EXPECT_EQ(std::get<spec::DmaArgs>(insn.args).dram_offset, 0x100u);
    }
    const auto* r = std::get_if<spec::ResizeArgs>(&insn.args);
    if (r == nullptr) continue;
    ++resizes;
    EXPECT_EQ(r->in_pixel_stride, 64u);
    EXPECT_EQ(r->in_w, 4u);
    EXPECT_EQ((r->in_addr - 0x10000) % 64, (resizes - 1) % blocks * t.tile_c);  // channels inner
  }
  EXPECT_EQ(resizes, bands * blocks);
}

TEST(ResizeTiling, BandsOfAnUpscaleHoldTheirSourceRows) {
  // An 8x upscale of 4 rows (half-pixel taps: 4 edge rows, then runs of 8 reading one pair of
  // source rows): in DRAM with room to spare the chosen bands are taller than a row, and each
  // RESIZE of more than two rows holds its source rows, saying how many it blends.
  ResizeLayer l;
  l.name = "up8";
  l.in_h = 4, l.in_w = 4, l.channels = 16, l.out_h = 32, l.out_w = 32;
  for (uint32_t o = 0; o < 32; ++o) {
    const double src = std::max(0.0, (o + 0.5) / 8 - 0.5);
    const uint32_t y0 = uint32_t(src), y1 = std::min(y0 + 1, 3u);
    const ResizeTap tap{y0, y1, uint32_t((src - y0) * 1024)};
    l.row_taps.push_back(tap);
    l.col_taps.push_back(tap);
  }
  const spec::NpuConfig c = spec::DefaultConfig();
  StatusOr<VectorChoice<ResizeTiling>> choice = ChooseResizeTiling(c, l, {});
  ASSERT_TRUE(choice.ok()) << choice.status().message();
  EXPECT_GT(choice->tiling.tile_oh, 2u);
  uint64_t lane_ops = 0, held = 0;
  const ResizeOperands ops{DramTensor(0, 16), DramTensor(0x1000, 16), 0x8000};
  for (const spec::Instruction& insn : EmitResize(l, choice->tiling, choice->plan, ops)) {
    const auto* r = std::get_if<spec::ResizeArgs>(&insn.args);
    if (r == nullptr) continue;
    lane_ops += spec::VectorLaneOps(insn);
    if (r->out_h > 2) {
      EXPECT_GT(r->row_blends, 0u);
      ++held;
    }
  }
  EXPECT_GT(held, 0u);
  EXPECT_LT(lane_ops, spec::kResizeTapsPerElement * 32 * 32 * 16);
}

TEST(ResizeTiling, NothingFitsOnlyWithAnOperandOnChip) {
  const ResizeLayer l = Small();
  const spec::NpuConfig c = spec::DefaultConfig();
  // 40 bytes: whole rows do not fit even with one channel and each tile's own taps (6*3 bytes of
  // taps, 6 of input and 2 of output, double-buffered: 52); in DRAM, blocks of a column do (34).
  StatusOr<VectorChoice<ResizeTiling>> tiny = ChooseResizeTiling(c, l, {40, false, false});
  ASSERT_TRUE(tiny.ok()) << tiny.status().message();
  EXPECT_FALSE(tiny->tiling.taps_once);
  EXPECT_EQ(tiny->tiling.tile_ow, 1u);
  EXPECT_EQ(tiny->plan.sram_bytes, 34u);
  const StatusOr<VectorChoice<ResizeTiling>> none = ChooseResizeTiling(c, l, {40, false, true});
  ExpectError(none.status(), ErrorKind::kResourceExhausted, "layer 'up': no tiling fits");
}

}  // namespace
}  // namespace npu::compiler
