// RESIZE layers lowered from quantised resize nodes, compiled and run on the functional executor
// in stream order and a random token-legal order, every output byte against the integer
// reference: bilinear and nearest, up- and downsampling, non-integer ratios (33 -> 65, 5 -> 11),
// every coordinate transformation, taps that are not monotonic, on four configs; bands of rows,
// blocks of channels and blocks of columns on a small SRAM; operands read and written in place
// on chip; and the control core still running a resize it is told to, of an input wider than
// 1024 too.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

struct Sampling {
  std::string mode, transform;
};

// x (h x w x c) -> resize to out_h x out_w, optionally between two convolutions (so its operands
// may stay on chip).
ir::Graph OneResize(const std::string& name, int64_t h, int64_t w, int64_t c, int64_t out_h,
                    int64_t out_w, const Sampling& s, bool between_convs) {
  QuantGraphBuilder b(name, 11);
  ir::Tensor* x = b.Input("x", h, w, between_convs ? 3 : c);
  if (between_convs) {
    x = b.Conv(x, "conv_in", {.out_c = c, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
  }
  x = b.Resize(x, "resize", out_h, out_w, ResizeTapsOf(s.mode, s.transform, h, out_h),
               ResizeTapsOf(s.mode, s.transform, w, out_w));
  if (between_convs) x = b.Conv(x, "conv_out", {.out_c = 5, .kh = 1, .kw = 1});
  return b.Finish({x});
}

// The compiled resize layer, which must run on the NPU as RESIZE instructions.
const ModelLayer& ResizeOf(const CompiledModel& m) {
  static const ModelLayer kMissing;
  const auto it = std::find_if(m.layers.begin(), m.layers.end(),
                               [](const ModelLayer& l) { return l.name == "resize"; });
  if (it == m.layers.end()) {
    ADD_FAILURE() << "no layer 'resize'";
    return kMissing;
  }
  EXPECT_FALSE(it->on_cpu) << it->note;
  EXPECT_EQ(it->op, "resize");
  uint32_t resizes = 0;
  for (uint32_t i : it->instructions) {
    resizes += m.instructions[i].opcode == spec::Opcode::kResize;
  }
  EXPECT_GT(resizes, 0u);
  return *it;
}

const NamedConfig& Sweep(const std::string& name) {
  static const std::vector<NamedConfig> configs = SweepConfigs();
  return *std::find_if(configs.begin(), configs.end(),
                       [&](const NamedConfig& c) { return c.name == name; });
}

TEST(ResizeLayers, BilinearEveryTransformationOnEveryConfig) {
  for (const char* transform :
       {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel"}) {
    for (bool between_convs : {false, true}) {
      const ir::Graph g =
          OneResize("bilinear", 5, 7, 6, 11, 17, {"linear", transform}, between_convs);
      for (const NamedConfig& c : SweepConfigs()) {
        SCOPED_TRACE(::testing::Message()
                     << transform << " convs " << between_convs << " " << c.name);
        ResizeOf(ExpectBitExact(g, c.config, 1));
      }
    }
  }
}

TEST(ResizeLayers, NearestUpAndDownsampling) {
  const struct {
    int64_t h, w, c, out_h, out_w;
    Sampling s;
  } cases[] = {{6, 5, 4, 12, 15, {"nearest", "asymmetric"}},
               {13, 9, 5, 7, 4, {"nearest", "half_pixel"}},
               {13, 9, 5, 4, 3, {"linear", "half_pixel"}},
               {1, 1, 3, 5, 6, {"linear", "align_corners"}},
               {7, 1, 2, 3, 9, {"nearest", "align_corners"}}};
  for (const auto& k : cases) {
    const ir::Graph g = OneResize("resize", k.h, k.w, k.c, k.out_h, k.out_w, k.s, false);
    for (const NamedConfig& c : SweepConfigs()) {
      SCOPED_TRACE(::testing::Message() << k.h << "x" << k.w << "x" << k.c << " -> " << k.out_h
                                        << "x" << k.out_w << " " << k.s.mode << " " << c.name);
      ResizeOf(ExpectBitExact(g, c.config, 1));
    }
  }
}

TEST(ResizeLayers, ThirtyThreeToSixtyFiveAlignCorners) {
  // The ratio 65/33 puts every second output between two inputs at a different fraction.
  const ir::Graph g = OneResize("resize", 33, 33, 4, 65, 65, {"linear", "align_corners"}, false);
  for (const NamedConfig& c : SweepConfigs()) {
    SCOPED_TRACE(c.name);
    ResizeOf(ExpectBitExact(g, c.config, 1));
  }
}

TEST(ResizeLayers, TapsNeedNotBeMonotonic) {
  // A mirror of the rows and a shuffle of the columns, with seeded weights: each tile reads the
  // window its taps span, whatever their order.
  std::mt19937 rng(5);
  std::vector<int64_t> rows, cols;
  for (int64_t o = 0; o < 9; ++o)
    rows.insert(rows.end(), {(8 - o) / 2, (8 - o + 1) / 2, int64_t(rng() % 1025)});
  for (int64_t o = 0; o < 11; ++o) {
    cols.insert(cols.end(), {int64_t(rng() % 6), int64_t(rng() % 6), int64_t(rng() % 1025)});
  }
  QuantGraphBuilder b("shuffled", 3);
  ir::Tensor* x = b.Input("x", 5, 6, 7);
  const ir::Graph g = b.Finish({b.Resize(x, "resize", 9, 11, rows, cols)});
  for (const NamedConfig& c : SweepConfigs()) {
    SCOPED_TRACE(c.name);
    ResizeOf(ExpectBitExact(g, c.config, 2));
  }
}

TEST(ResizeLayers, ASmallSramCutsChannelBlocks) {
  // One output row of all 64 channels, double-buffered, is 6400 bytes: more than the 4 KiB.
  const ir::Graph g = OneResize("resize", 4, 20, 64, 9, 50, {"linear", "half_pixel"}, false);
  const CompiledModel m = ExpectBitExact(g, Sweep("tiny").config, 2);
  const ModelLayer& l = ResizeOf(m);
  EXPECT_NE(l.tiling.find("cols=50 "), std::string::npos) << l.tiling;
  EXPECT_EQ(l.tiling.find("channels=64"), std::string::npos) << l.tiling;
}

TEST(ResizeLayers, AWideResizeOnASmallSramCutsColumnsAndLoadsTapsPerTile) {
  // The taps alone, 6 * (5 + 1500) bytes, are more than the 4 KiB.
  const ir::Graph g = OneResize("resize", 3, 50, 3, 5, 1500, {"linear", "half_pixel"}, false);
  const CompiledModel m = ExpectBitExact(g, Sweep("tiny").config, 1);
  const ModelLayer& l = ResizeOf(m);
  EXPECT_NE(l.tiling.find("taps=per-tile"), std::string::npos) << l.tiling;
  EXPECT_EQ(l.tiling.find("cols=1500"), std::string::npos) << l.tiling;
}

TEST(ResizeLayers, OperandsOnChipAreReadAndWrittenInPlace) {
  const ir::Graph g = OneResize("resize", 6, 7, 8, 13, 15, {"linear", "half_pixel"}, true);
  const CompiledModel m = ExpectBitExact(g, Sweep("default").config, 2);
  const ModelLayer& l = ResizeOf(m);
  EXPECT_TRUE(l.on_chip.input[0] && l.on_chip.output) << l.tiling;
  EXPECT_NE(l.tiling.find("in=sram out=sram"), std::string::npos) << l.tiling;
}

TEST(ResizeLayers, TheControlCoreRunsAResizeItIsToldTo) {
  const ir::Graph g = OneResize("resize", 5, 7, 6, 11, 17, {"linear", "half_pixel"}, true);
  CompileOptions o;
  o.cpu_ops = {"resize"};
  for (const NamedConfig& c : SweepConfigs()) {
    SCOPED_TRACE(c.name);
    const CompiledModel m = ExpectBitExact(g, c.config, 1, o);
    for (const ModelLayer& l : m.layers) EXPECT_EQ(l.on_cpu, l.name == "resize") << l.name;
  }
}

// The firmware's checks once bounded a tap's source indices by 1024, a tap weight's bound: a
// resize of an input wider than that, forced onto the control core, was refused at load.
TEST(ResizeLayers, TheControlCoreResizesAnInputWiderThan1024) {
  const ir::Graph g = OneResize("wide", 2, 2000, 1, 2, 4, {"linear", "half_pixel"}, false);
  CompileOptions o;
  o.cpu_ops = {"resize"};
  const CompiledModel m = ExpectBitExact(g, Sweep("default").config, 1, o);
  for (const ModelLayer& l : m.layers) EXPECT_EQ(l.on_cpu, l.name == "resize") << l.name;
}

}  // namespace
}  // namespace npu::compiler::testing
