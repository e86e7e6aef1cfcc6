// Every lowering on odd shapes, executed functionally (no SystemC) against the integer
// reference (compiler/qinterp), on configs from the default to a 4x4 array with 4 KiB of SRAM:
// convolutions of many kernels, strides, paddings and dilations; depthwise and grouped
// convolutions; fully connected layers; max, average and global average pools (one re-viewed to
// fit POOL's window); adds (in place, ReLU, differing scales); views. Also the errors: ops the
// NPU cannot run, a global pool it cannot average exactly, an SRAM too small for one tile.
#include <gtest/gtest.h>

#include <string>

#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

// Builds `body` over a 13x11 input of `channels` and checks it on every sweep config.
template <class Body>
void ExpectOnEveryConfig(int64_t h, int64_t w, int64_t channels, Body body) {
  for (const NamedConfig& c : SweepConfigs()) {
    SCOPED_TRACE(c.name);
    QuantGraphBuilder b("odd", 11);
    ir::Tensor* x = b.Input("x", h, w, channels);
    const ir::Graph g = b.Finish({body(b, x)});
    ExpectBitExact(g, c.config);
  }
}

TEST(Lowering, ConvolutionsOfAnyKernelStridePaddingAndDilation) {
  const std::vector<ConvSpec> specs = {
      {.out_c = 9, .kh = 1, .kw = 1},
      {.out_c = 9, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}, .activation = "relu"},
      {.out_c = 7, .kh = 5, .kw = 5, .stride_h = 2, .stride_w = 2, .pads = {2, 2, 2, 2}},
      {.out_c = 33, .kh = 7, .kw = 7, .stride_h = 2, .stride_w = 2, .pads = {3, 3, 3, 3}},
      {.out_c = 5, .kh = 2, .kw = 2, .stride_h = 3, .stride_w = 3},
      {.out_c = 6,
       .kh = 3,
       .kw = 3,
       .pads = {2, 2, 2, 2},
       .dilation_h = 2,
       .dilation_w = 2,
       .activation = "relu6"},
      {.out_c = 4, .kh = 1, .kw = 3, .pads = {0, 1, 0, 2}},
      {.out_c = 3, .kh = 3, .kw = 1, .stride_h = 2, .stride_w = 1, .pads = {1, 0, 0, 0}}};
  for (const ConvSpec& spec : specs) {
    SCOPED_TRACE(::testing::Message() << spec.kh << "x" << spec.kw << "/" << spec.stride_h);
    ExpectOnEveryConfig(
        13, 11, 5, [&](QuantGraphBuilder& b, ir::Tensor* x) { return b.Conv(x, "conv", spec); });
  }
}

TEST(Lowering, ConvolutionsBeyondTheIsaFieldsAreDecomposed) {
  // Kernels above 15 taps (kernel blocks), dilations above 15 (one-tap blocks), strides above 15
  // (one output row/column per tile), padding wider than the kernel (windows of padding alone).
  const std::vector<ConvSpec> specs = {
      {.out_c = 5, .kh = 17, .kw = 3, .pads = {8, 1, 8, 1}},
      {.out_c = 4, .kh = 3, .kw = 18, .stride_h = 1, .stride_w = 2, .pads = {1, 0, 1, 0}},
      {.out_c = 3, .kh = 3, .kw = 3, .pads = {16, 16, 16, 16}, .dilation_h = 16, .dilation_w = 16},
      {.out_c = 6, .kh = 2, .kw = 3, .stride_h = 17, .stride_w = 16, .pads = {0, 1, 0, 1}},
      {.out_c = 7, .kh = 1, .kw = 1, .pads = {2, 3, 1, 2}},
      {.out_c = 2, .kh = 3, .kw = 3, .pads = {5, 4, 6, 5}, .activation = "relu"}};
  for (const ConvSpec& spec : specs) {
    SCOPED_TRACE(::testing::Message() << spec.kh << "x" << spec.kw << " stride " << spec.stride_h
                                      << " dilation " << spec.dilation_h);
    ExpectOnEveryConfig(
        40, 37, 3, [&](QuantGraphBuilder& b, ir::Tensor* x) { return b.Conv(x, "conv", spec); });
  }
  ExpectOnEveryConfig(24, 20, 5, [](QuantGraphBuilder& b, ir::Tensor* x) {
    return b.Conv(x, "dw", {.out_c = 5, .kh = 19, .kw = 2, .pads = {9, 0, 9, 1}, .group = 5});
  });
  // The decompositions are named in the layer's tiling text.
  QuantGraphBuilder b("noted", 2);
  ir::Tensor* x = b.Input("x", 40, 40, 2);
  x = b.Conv(x, "big", {.out_c = 2, .kh = 17, .kw = 1, .stride_h = 16, .pads = {0, 3, 0, 3}});
  const CompiledModel m = ExpectBitExact(b.Finish({x}), Config({}));
  const std::string tiling = m.program.layers(0).tiling();
  EXPECT_NE(tiling.find("as 2 kernel blocks"), std::string::npos) << tiling;
  EXPECT_NE(tiling.find("one output row/column per tile"), std::string::npos) << tiling;
  EXPECT_NE(tiling.find("windows of padding alone"), std::string::npos) << tiling;
}

TEST(Lowering, DepthwiseConvolutions) {
  for (int64_t stride : {1, 2}) {
    ExpectOnEveryConfig(13, 11, 13, [&](QuantGraphBuilder& b, ir::Tensor* x) {
      return b.Conv(x, "dw",
                    {.out_c = 13,
                     .kh = 3,
                     .kw = 3,
                     .stride_h = stride,
                     .stride_w = stride,
                     .pads = {1, 1, 1, 1},
                     .group = 13,
                     .activation = "relu6"});
    });
  }
  ExpectOnEveryConfig(12, 9, 6, [](QuantGraphBuilder& b, ir::Tensor* x) {
    return b.Conv(x, "dw",
                  {.out_c = 6,
                   .kh = 5,
                   .kw = 5,
                   .pads = {4, 4, 4, 4},
                   .dilation_h = 2,
                   .dilation_w = 2,
                   .group = 6});
  });
}

TEST(Lowering, GroupedConvolutionsRunAsOneConvolutionPerGroup) {
  ExpectOnEveryConfig(9, 7, 12, [](QuantGraphBuilder& b, ir::Tensor* x) {
    return b.Conv(x, "grouped", {.out_c = 9, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}, .group = 3});
  });
  QuantGraphBuilder b("grouped", 3);
  ir::Tensor* x = b.Input("x", 8, 8, 8);
  x = b.Conv(x, "g2", {.out_c = 8, .kh = 1, .kw = 1, .group = 2});
  const CompiledModel m = ExpectBitExact(b.Finish({x}), Config({}));
  ASSERT_EQ(m.layers.size(), 1u);
  EXPECT_EQ(m.layers[0].op, "grouped_conv2d");
  EXPECT_NE(m.layers[0].note.find("2 groups"), std::string::npos) << m.layers[0].note;
  EXPECT_NE(m.program.layers(0).tiling().find("2 groups"), std::string::npos);
}

TEST(Lowering, FullyConnectedLayers) {
  for (const NamedConfig& c : SweepConfigs()) {
    SCOPED_TRACE(c.name);
    QuantGraphBuilder b("fc", 5);
    ir::Tensor* x = b.VectorInput("x", 300);
    x = b.Gemm(x, "fc1", 77, /*relu=*/true);
    ExpectBitExact(b.Finish({b.Gemm(x, "fc2", 10)}), c.config);
  }
  ExpectOnEveryConfig(5, 3, 7, [](QuantGraphBuilder& b, ir::Tensor* x) {
    x = b.Conv(x, "conv", {.out_c = 16, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
    return b.Gemm(b.Flatten(x, "flatten"), "fc", 21);
  });
}

TEST(Lowering, MaxAndAveragePools) {
  const std::vector<PoolSpec> specs = {
      {.kh = 3, .kw = 3, .stride_h = 2, .stride_w = 2, .pads = {1, 1, 1, 1}},
      {.kh = 2, .kw = 2, .stride_h = 2, .stride_w = 2},
      {.kh = 3, .kw = 2, .stride_h = 1, .stride_w = 2, .pads = {1, 0, 1, 1}}};
  for (const PoolSpec& spec : specs) {
    ExpectOnEveryConfig(
        13, 11, 6, [&](QuantGraphBuilder& b, ir::Tensor* x) { return b.MaxPool(x, "max", spec); });
    for (bool include_pad : {false, true}) {
      PoolSpec avg = spec;
      avg.count_include_pad = include_pad;
      ExpectOnEveryConfig(
          13, 11, 6, [&](QuantGraphBuilder& b, ir::Tensor* x) { return b.AvgPool(x, "avg", avg); });
    }
  }
}

TEST(Lowering, GlobalAveragePools) {
  ExpectOnEveryConfig(
      7, 7, 40, [](QuantGraphBuilder& b, ir::Tensor* x) { return b.GlobalAvgPool(x, "gap"); });
  // 260 rows do not fit POOL's 8-bit kernel field: the 780-pixel plane is viewed as 195x4.
  QuantGraphBuilder b("tall", 9);
  ir::Tensor* x = b.Input("x", 260, 3, 4);
  const CompiledModel m = ExpectBitExact(b.Finish({b.GlobalAvgPool(x, "gap")}), Config({}));
  ASSERT_EQ(m.layers.size(), 1u);
  EXPECT_NE(m.layers[0].note.find("viewed as a 195x4 plane"), std::string::npos)
      << m.layers[0].note;
}

TEST(Lowering, AddsInPlaceWithReluAndDifferentScales) {
  ExpectOnEveryConfig(9, 7, 10, [](QuantGraphBuilder& b, ir::Tensor* x) {
    ir::Tensor* y = b.Conv(x, "c1", {.out_c = 10, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
    ir::Tensor* z = b.Conv(y, "c2", {.out_c = 10, .kh = 1, .kw = 1});
    return b.Add(b.Add(z, y, "add1", /*relu=*/true), x, "add2");
  });
  ExpectOnEveryConfig(5, 5, 3,
                      [](QuantGraphBuilder& b, ir::Tensor* x) { return b.Add(x, x, "double"); });
}

TEST(Lowering, ASumGoesInPlaceOfTheOperandWrittenLatest) {
  // `early` (20 x 14 x 16) is read by the first 3x3 and by the sum four 3x3s later, so it goes
  // through DRAM in 20 KiB; `late` is written just before the sum. Written over `late`, the sum
  // stays on chip for `after`; over `early` it would share early's buffer, in DRAM.
  QuantGraphBuilder b("late_sum", 5);
  ir::Tensor* x = b.Input("x", 20, 14, 8);
  ir::Tensor* early = b.Conv(x, "early", {.out_c = 16});
  ir::Tensor* t = early;
  for (int i = 0; i < 4; ++i) {
    t = b.Conv(t, "mid" + std::to_string(i),
               {.out_c = 48, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
  }
  ir::Tensor* late = b.Conv(t, "late", {.out_c = 16});
  ir::Tensor* y = b.Conv(b.Add(early, late, "sum"), "after", {.out_c = 8});
  const CompiledModel m = ExpectBitExact(b.Finish({y}), Config({"sram.size_bytes=20480"}));
  EXPECT_EQ(m.memory.elementwise_in_place, 1);
  EXPECT_FALSE(LayerNamed(m, "early").on_chip.output);
  EXPECT_FALSE(LayerNamed(m, "sum").on_chip.input[0]);
  EXPECT_TRUE(LayerNamed(m, "sum").on_chip.input[1]);
  EXPECT_TRUE(LayerNamed(m, "sum").on_chip.output);
  EXPECT_TRUE(LayerNamed(m, "after").on_chip.input[0]);
}

TEST(Lowering, ViewsAreFreeAndKeepTheBytes) {
  ExpectOnEveryConfig(6, 4, 8, [](QuantGraphBuilder& b, ir::Tensor* x) {
    x = b.Conv(x, "c1", {.out_c = 8, .kh = 1, .kw = 1});
    x = b.Reshape(x, "swap", {1, 4, 6, 8});
    return b.Conv(x, "c2", {.out_c = 5, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
  });
}

TEST(Lowering, OpsOutsideTheQuantisedIrAreRefused) {
  QuantGraphBuilder b("unsupported", 1);
  ir::Tensor* x = b.Input("x", 4, 4, 4);
  x = b.Other(ir::OpKind::kCast, x, "cast");
  x = b.Other(ir::OpKind::kExpand, x, "expand");
  const StatusOr<CompiledModel> m = CompileModel(Config({}), b.Finish({x}));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().kind(), ErrorKind::kUnimplemented);
  EXPECT_NE(m.status().message().find("node 'cast': op cast is not part of the quantised IR"),
            std::string::npos)
      << m.status().message();
}

TEST(Lowering, MalformedGraphsAreErrorsNotCrashes) {
  auto expect_error = [](ir::Graph g, const std::string& text) {
    const StatusOr<CompiledModel> m = CompileModel(Config({}), g);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.status().message().find(text), std::string::npos) << m.status().message();
  };
  {  // a float input
    ir::Graph g("float");
    g.AddOutput(g.AddInput("x", ir::DType::kFloat32, {1, 4, 4, 2}, ir::Layout::kNHWC));
    expect_error(std::move(g), "is f32, not i8");
  }
  {  // a convolution without its requantisation
    QuantGraphBuilder b("noattrs", 1);
    ir::Tensor* y = b.Conv(b.Input("x", 4, 4, 2), "c", {.out_c = 3, .kh = 1, .kw = 1});
    ir::Graph g = b.Finish({y});
    g.FindTensor("c")->producer()->attrs().Erase("multiplier");
    expect_error(std::move(g), "attribute 'multiplier'");
  }
  {  // an add of different shapes
    QuantGraphBuilder b("shapes", 1);
    ir::Tensor* x = b.Input("x", 4, 4, 2);
    ir::Tensor* y = b.Conv(x, "c", {.out_c = 3, .kh = 1, .kw = 1});
    expect_error(b.Finish({b.Add(x, y, "add")}), "do not broadcast");
  }
  {  // weights that do not match the kernel
    QuantGraphBuilder b("weights", 1);
    ir::Tensor* y = b.Conv(b.Input("x", 4, 4, 2), "c", {.out_c = 3, .kh = 3, .kw = 3});
    ir::Graph g = b.Finish({y});
    g.FindTensor("c")->producer()->attrs().Set("kernel_shape", std::vector<int64_t>{1, 1});
    expect_error(std::move(g), "disagrees with weights");
  }
}

TEST(Lowering, GlobalPoolWithoutAnExactFormRunsOnTheCpuWithTheReason) {
  QuantGraphBuilder b("huge", 1);
  ir::Tensor* x = b.Input("x", 257, 257, 1);  // 66049 pixels: more than 255 x 255
  const StatusOr<CompiledModel> m = CompileModel(Config({}), b.Finish({b.GlobalAvgPool(x, "g")}));
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->layers.size(), 1u);
  EXPECT_TRUE(m->layers[0].on_cpu);
  EXPECT_NE(m->layers[0].note.find("round twice"), std::string::npos) << m->layers[0].note;
  ASSERT_EQ(m->program.steps_size(), 1);
  EXPECT_EQ(m->program.steps(0).cpu().kernel(), "global_average_pool");
}

TEST(Lowering, GlobalPoolWithoutAnExactFormAndNoFallbackIsRefusedWithTheReason) {
  QuantGraphBuilder b("huge", 1);
  ir::Tensor* x = b.Input("x", 257, 257, 1);
  CompileOptions options;
  options.cpu_fallback = false;
  const StatusOr<CompiledModel> m =
      CompileModel(Config({}), b.Finish({b.GlobalAvgPool(x, "g")}), options);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().kind(), ErrorKind::kUnimplemented);
  EXPECT_NE(m.status().message().find("'g'"), std::string::npos) << m.status().message();
  EXPECT_NE(m.status().message().find("round twice"), std::string::npos);
  EXPECT_NE(m.status().message().find("fallback is off"), std::string::npos);
}

TEST(Lowering, MatrixProductsOfTwoActivationsRunOnTheMacArray) {
  QuantGraphBuilder b("products", 3);
  ir::Tensor* a = b.Input("a", 3, 7, 5);  // three 7 x 5 matrices
  ir::Tensor* k = b.Input("k", 1, 5, 9);  // one 5 x 9 matrix for all three
  const ir::Graph g = b.Finish({b.MatMul(a, k, "scores")});
  for (const NamedConfig& c : SweepConfigs()) {
    SCOPED_TRACE(c.name);
    const CompiledModel m = ExpectBitExact(g, c.config, 2);
    ASSERT_EQ(m.layers.size(), 1u);
    EXPECT_FALSE(m.layers[0].on_cpu);
    EXPECT_EQ(m.layers[0].op, "matmul");
    EXPECT_EQ(m.layers[0].macs, 3u * 7 * 5 * 9);
    EXPECT_EQ(m.layers[0].shape, "3x7x5 x 1x5x9 -> 3x7x9");
  }
}

// K above 33025: 9-bit x 9-bit products could overflow the NPU's int32 sums.
TEST(Lowering, MatMulWithAReductionTooLongForTheNpuRunsOnTheCpuWithTheReason) {
  QuantGraphBuilder b("long", 4);
  ir::Tensor* a = b.Input("a", 1, 1, 33026);
  ir::Tensor* k = b.Input("k", 1, 33026, 2);
  const ir::Graph g = b.Finish({b.MatMul(a, k, "long")});
  const CompiledModel m = ExpectBitExact(g, Config({}), 0);
  ASSERT_EQ(m.layers.size(), 1u);
  EXPECT_TRUE(m.layers[0].on_cpu);
  EXPECT_NE(m.layers[0].note.find("above 33025 the int32 accumulator could overflow"),
            std::string::npos)
      << m.layers[0].note;
}

TEST(Lowering, SramTooSmallForOneTileNamesTheLayerAndTheBytes) {
  // The smallest SRAM a 4x4 array accepts (144 bytes) cannot hold one double-buffered tile of a
  // dilated 7x7 kernel: 2 x (13x13 window + 49 weights + 12 parameter bytes + 1 output).
  const spec::NpuConfig config =
      Config({"mac.rows=4", "mac.cols=4", "mac.acc_buffer_bytes=128", "sram.banks=1",
              "sram.bank_width_bytes=16", "sram.size_bytes=144"});
  QuantGraphBuilder b("dilated", 1);
  ir::Tensor* x = b.Input("x", 20, 20, 2);
  x = b.Conv(x, "wide", {.out_c = 2, .kh = 7, .kw = 7, .dilation_h = 2, .dilation_w = 2});
  const StatusOr<CompiledModel> m = CompileModel(config, b.Finish({x}));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(m.status().message().find("layer 'wide'"), std::string::npos) << m.status().message();
  EXPECT_NE(m.status().message().find("needs 462 bytes of SRAM; the config has 144"),
            std::string::npos)
      << m.status().message();
}

}  // namespace
}  // namespace npu::compiler::testing
