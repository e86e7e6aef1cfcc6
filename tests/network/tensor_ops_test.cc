// The quantised IR's tensor ops end to end on odd shapes: float graphs through the front-end
// pipeline and the quantiser, compiled (the NPU runs what it can, the control core the rest) and
// executed functionally on every sweep config, every output byte against the integer reference
// (so the quantiser, the checker, the integer reference and the firmware's CPU kernels agree);
// and the int8 result close to the float one. Attention: attention_test.cc.
#include <gtest/gtest.h>

#include "compiler/network/row_strips.h"
#include "compiler/network/tuning.h"
#include "tests/network/float_graph.h"
#include "tests/network/network_test_util.h"

namespace npu::compiler::testing {
namespace {

using ir::OpKind;

TEST(TensorOps, LookupTablesAndBroadcastingProducts) {
  // conv -> SiLU (x * sigmoid x) -> squeeze-excite (gap, 1x1 convs, hard sigmoid, mul by the
  // per-channel scale) -> GELU (erf form) -> max with a constant -> minus a per-channel constant.
  FloatBuilder b("lut");
  ir::Tensor* x = b.Conv(b.Input({1, 5, 7, 6}), 5, 8, 3);
  x = b.Op(OpKind::kMul, {x, b.Op(OpKind::kSigmoid, {x})});
  ir::Tensor* s = b.Op(OpKind::kGlobalAveragePool, {x});
  s = b.Op(OpKind::kRelu, {b.Conv(s, 8, 3, 1)});
  s = b.Op(OpKind::kHardSigmoid, {b.Conv(s, 3, 8, 1)}, Attr("alpha", 1.0f / 6));
  x = b.Op(OpKind::kMul, {x, s});
  ir::Tensor* e = b.Op(OpKind::kErf, {b.Op(OpKind::kDiv, {x, b.Scalar(1.4142135f)})});
  e = b.Op(OpKind::kAdd, {e, b.Scalar(1.0f)});
  x = b.Op(OpKind::kMul, {b.Op(OpKind::kMul, {x, e}), b.Scalar(0.5f)});
  x = b.Op(OpKind::kMax, {x, b.Const({1, 8, 1, 1})});
  x = b.Op(OpKind::kSub, {x, b.Const({1, 8, 1, 1})});
  Check(b.Finish(x), 0.99);
}

TEST(TensorOps, DataMovement) {
  // Two convs concatenated on channels, a channel shuffle (DMA), a strided channel slice, a pad,
  // a nearest and a bilinear resize, a transpose of the plane.
  FloatBuilder b("data");
  ir::Tensor* in = b.Input({1, 3, 5, 6});
  ir::Tensor* x =
      b.Op(OpKind::kConcat, {b.Conv(in, 3, 4, 3), b.Conv(in, 3, 2, 1)}, Attr("axis", int64_t{1}));
  x = b.Op(OpKind::kChannelShuffle, {x}, Attr("group", int64_t{2}));
  x = b.Op(OpKind::kSlice, {x, b.Ints({1}), b.Ints({6}), b.Ints({1}), b.Ints({2})});
  x = b.Op(OpKind::kPad, {x, b.Ints({0, 0, 1, 0, 0, 0, 0, 2})});
  ir::Attributes nearest;
  nearest.Set("mode", std::string("nearest"));
  x = b.Op(OpKind::kResize, {x, nullptr, b.Floats({1.0f, 1.0f, 2.0f, 2.0f})}, nearest);
  ir::Attributes linear;
  linear.Set("mode", std::string("linear"));
  x = b.Op(OpKind::kResize, {x, nullptr, nullptr, b.Ints({1, 3, 11, 17})}, linear);
  x = b.Op(OpKind::kTranspose, {x}, Attr("perm", std::vector<int64_t>{0, 1, 3, 2}));
  const CompiledModel m = Check(b.Finish(x), 0.999);
  // Both resizes run on the NPU (RESIZE), the shuffle by DMA, the strided slice (step 2 on the
  // channels: single bytes) on the CPU.
  EXPECT_EQ(NpuLayers(m, "resize"), 2);
  EXPECT_EQ(CpuLayers(m, "channel_shuffle"), 0);
  EXPECT_EQ(CpuLayers(m, "slice"), 1);
}

TEST(TensorOps, AttentionNormalisationAndReductions) {
  // A one-head self-attention over 6 tokens of 10 features: projections (MatMul by a constant,
  // bias Add), q k^T scaled, softmax, times v, a residual, layer norm, then a mean and a max over
  // the features broadcast back.
  FloatBuilder b("attention");
  ir::Tensor* x = b.Input({1, 6, 10});
  auto project = [&](ir::Tensor* in, int64_t n) {
    return b.Op(OpKind::kAdd, {b.Op(OpKind::kMatMul, {in, b.Const({10, n}, 0.3f)}), b.Const({n})});
  };
  ir::Tensor *q = project(x, 8), *k = project(x, 8), *v = project(x, 10);
  ir::Tensor* kt = b.Op(OpKind::kTranspose, {k}, Attr("perm", std::vector<int64_t>{0, 2, 1}));
  ir::Tensor* att = b.Op(OpKind::kDiv, {b.Op(OpKind::kMatMul, {q, kt}), b.Scalar(2.83f)});
  att = b.Op(OpKind::kSoftmax, {att}, Attr("axis", int64_t{-1}));
  ir::Tensor* y = b.Op(OpKind::kAdd, {x, b.Op(OpKind::kMatMul, {att, v})});
  y = b.Op(OpKind::kLayerNormalization, {y, b.Const({10}, 1.0f), b.Const({10}, 0.2f)},
           Attr("axis", int64_t{-1}));
  ir::Attributes mean;
  mean.Set("axes", std::vector<int64_t>{-1});
  mean.Set("keepdims", int64_t{1});
  ir::Tensor* m = b.Op(OpKind::kReduceMean, {y}, mean);
  ir::Tensor* top = b.Op(OpKind::kReduceMax, {y}, mean);
  y = b.Op(OpKind::kMul, {b.Op(OpKind::kSub, {y, m}), top});
  const CompiledModel c = Check(b.Finish(y), 0.99);
  EXPECT_EQ(NpuLayers(c, "matmul"), 2);
  EXPECT_EQ(NpuLayers(c, "layer_norm"), 1);
}

TEST(TensorOps, LayerNormsOfPixelsRunOnTheNormaliserUnlessTheNpuHasNone) {
  // convnext's block: a depthwise conv, its pixels normalised over the channels (NHWC by a
  // transpose the layout makes free), a 1x1 expansion.
  FloatBuilder b("layer_norm");
  ir::Tensor* x = b.Conv(b.Input({1, 12, 5, 6}), 12, 12, 3);
  x = b.Op(OpKind::kTranspose, {x}, Attr("perm", std::vector<int64_t>{0, 2, 3, 1}));
  x = b.Op(OpKind::kLayerNormalization, {x, b.Const({12}, 1.0f), b.Const({12}, 0.2f)},
           Attr("axis", int64_t{-1}));
  x = b.Op(OpKind::kTranspose, {x}, Attr("perm", std::vector<int64_t>{0, 3, 1, 2}));
  ir::Graph f = b.Finish(b.Conv(x, 12, 16, 1));
  const CompiledModel m = Check(f.Clone(), 0.99);  // on every sweep config, bit-exact
  EXPECT_EQ(NpuLayers(m, "layer_norm"), 1);
  EXPECT_EQ(CpuLayers(m, "layer_normalization"), 0);
  StatusOr<ir::Graph> q = PipelineAndQuantize(f);
  ASSERT_TRUE(q.ok()) << q.status().message();
  const CompiledModel cpu = ExpectBitExact(*q, Config({"act.norm_dividers=0"}), 1);
  EXPECT_EQ(NpuLayers(cpu, "layer_norm"), 0);
  EXPECT_EQ(CpuLayers(cpu, "layer_normalization"), 1);
}

int AllCpuLayers(const CompiledModel& m) {
  int n = 0;
  for (const ModelLayer& l : m.layers) n += l.on_cpu;
  return n;
}

TEST(TensorOps, TransposedConvolutionsAreConvolutionsAndAShuffle) {
  // Kernel 4 stride 2 pad 1 (the usual 2x upsampling), kernel 3 stride 2 pad 1 output_padding 1
  // with 2 groups, kernel 2 stride 2 (no overlap), kernel 3 stride 1.
  FloatBuilder b("deconv");
  ir::Tensor* x = b.Conv(b.Input({1, 3, 5, 6}), 3, 4, 3);
  auto deconv = [&](ir::Tensor* in, int64_t cin, int64_t cog, int64_t k, int64_t s, int64_t p,
                    int64_t op, int64_t group) {
    ir::Attributes a;
    a.Set("strides", std::vector<int64_t>{s, s});
    a.Set("pads", std::vector<int64_t>{p, p, p, p});
    a.Set("output_padding", std::vector<int64_t>{op, op});
    a.Set("group", group);
    return b.Op(OpKind::kConvTranspose,
                {in, b.Const({cin, cog, k, k}), b.Const({cog * group}, 0.1f)}, a);
  };
  x = b.Op(OpKind::kRelu, {deconv(x, 4, 6, 4, 2, 1, 0, 1)});
  x = deconv(x, 6, 2, 3, 2, 1, 1, 2);
  x = deconv(x, 4, 3, 2, 2, 0, 0, 1);
  x = deconv(x, 3, 3, 3, 1, 1, 0, 1);
  const CompiledModel m = Check(b.Finish(b.Conv(x, 3, 2, 1)), 0.99);
  // The three strided ones' depth-to-space shuffles are DMA transposes (runs of s x C bytes),
  // their crops DMA gathers (runs of a cropped row's pixels): nothing is left to the CPU.
  EXPECT_EQ(NpuLayers(m, "transpose"), 3);
  EXPECT_GE(NpuLayers(m, "slice"), 2);
  EXPECT_EQ(AllCpuLayers(m), 0);
}

TEST(TensorOps, TransposesKeepingTheInnermostAxisAreDmaGathers) {
  // Heads split off a projection ([6 tokens, 12] -> [6, 3 heads, 4] -> [3, 6, 4]: runs of 4
  // bytes), a table on them, their innermost axes swapped ([3, 4, 6]: single bytes, the control
  // core), and the heads moved inside ([4, 3, 6]: runs of 6). No product reads through them.
  FloatBuilder b("heads");
  ir::Tensor* x = b.Op(OpKind::kMatMul, {b.Input({1, 6, 12}), b.Const({12, 12}, 0.3f)});
  x = b.Op(OpKind::kReshape, {x, b.Ints({1, 6, 3, 4})});
  x = b.Op(OpKind::kTranspose, {x}, Attr("perm", std::vector<int64_t>{0, 2, 1, 3}));
  x = b.Op(OpKind::kSigmoid, {x});
  x = b.Op(OpKind::kTranspose, {x}, Attr("perm", std::vector<int64_t>{0, 1, 3, 2}));
  x = b.Op(OpKind::kTranspose, {b.Op(OpKind::kTanh, {x})},
           Attr("perm", std::vector<int64_t>{0, 2, 1, 3}));
  const CompiledModel m = Check(b.Finish(x), 0.99);
  EXPECT_EQ(NpuLayers(m, "transpose"), 2);
  EXPECT_EQ(CpuLayers(m, "transpose"), 1);
}

// Layers writing a channel slice of a wider buffer (a part of a placed concatenation) in SRAM.
int SlicesWrittenOnChip(const CompiledModel& m) {
  int n = 0;
  for (size_t i = 0; i < m.layers.size(); ++i) {
    const int out = m.network.layers[i].output;
    n += m.layers[i].on_chip.output && m.network.PixelStride(out) != m.network.value(out).c;
  }
  return n;
}

// A 3x3 convolution of a 7x9 image and an inception block over it: a 1x1 convolution, a 1x1
// then a 3x3 convolution, and a 3x3 max pool, concatenated (15 channels).
ir::Tensor* Inception(FloatBuilder& b) {
  ir::Tensor* x = b.Op(OpKind::kRelu, {b.Conv(b.Input({1, 3, 7, 9}), 3, 6, 3)});
  ir::Attributes pool;
  pool.Set("kernel_shape", std::vector<int64_t>{3, 3});
  pool.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  return b.Op(
      OpKind::kConcat,
      {b.Conv(x, 6, 4, 1), b.Conv(b.Conv(x, 6, 3, 1), 3, 5, 3), b.Op(OpKind::kMaxPool, {x}, pool)},
      Attr("axis", int64_t{1}));
}

TEST(TensorOps, ConcatenationsOfConvolutionsAndPoolsArePlacement) {
  // An inception block (three convolution branches and a pool branch) and a dense block (each
  // layer reads the concatenation of the block's input and every earlier layer's features).
  FloatBuilder b("concats");
  std::vector<ir::Tensor*> features = {Inception(b)};
  for (int layer = 0; layer < 3; ++layer) {
    ir::Tensor* cat = features.size() == 1
                          ? features[0]
                          : b.Op(OpKind::kConcat, features, Attr("axis", int64_t{1}));
    features.push_back(b.Op(OpKind::kRelu, {b.Conv(cat, 15 + 4 * layer, 4, 3)}));
  }
  ir::Tensor* block = b.Op(OpKind::kConcat, features, Attr("axis", int64_t{1}));
  // The concatenated tensors share one range (placement needs one scale): a little less exact.
  const CompiledModel m = Check(b.Finish(b.Conv(block, 27, 5, 1)), 0.97);
  EXPECT_EQ(m.network.concats_placed, 4);
  EXPECT_EQ(AllCpuLayers(m), 0);
  // Every buffer is read in parts (the dense block's layers read prefixes): DRAM.
  EXPECT_EQ(SlicesWrittenOnChip(m), 0);
}

// BatchNormalization and ReLU of `c` channels (a depthwise 1x1 layer once lowered).
ir::Tensor* BnRelu(FloatBuilder& b, ir::Tensor* x, int64_t c) {
  std::vector<float> scale(c), var(c);
  for (int64_t i = 0; i < c; ++i) scale[i] = 0.8f + 0.05f * float(i % 5), var[i] = 0.5f + 0.1f * i;
  ir::Tensor* bn =
      b.Op(OpKind::kBatchNormalization,
           {x, b.Floats(scale), b.Const({c}, 0.2f), b.Const({c}, 0.3f), b.Floats(var)});
  return b.Op(OpKind::kRelu, {bn});
}

// densenet's block over an h x w image: each of three layers normalises the concatenation of
// everything before it (a prefix of the block's buffer), then a 1x1 convolution to `bottleneck`
// channels and a 3x3 one add 4 channels; the block's 24 channels normalised, to 5.
ir::Graph DenseBlock(int64_t h, int64_t w, int64_t bottleneck) {
  FloatBuilder b("dense_block");
  std::vector<ir::Tensor*> features = {
      b.Op(OpKind::kRelu, {b.Conv(b.Input({1, 3, h, w}), 3, 12, 3)})};
  for (int layer = 0; layer < 3; ++layer) {
    const int64_t c = 12 + 4 * layer;
    ir::Tensor* cat = features.size() == 1
                          ? features[0]
                          : b.Op(OpKind::kConcat, features, Attr("axis", int64_t{1}));
    ir::Tensor* t = b.Op(OpKind::kRelu, {b.Conv(BnRelu(b, cat, c), c, bottleneck, 1)});
    features.push_back(b.Conv(t, bottleneck, 4, 3));
  }
  ir::Tensor* block = b.Op(OpKind::kConcat, features, Attr("axis", int64_t{1}));
  return b.Finish(b.Conv(BnRelu(b, block, 24), 24, 5, 1));
}

TEST(TensorOps, ADenseBlockStaysOnChipForItsNormalisationsReadPrefixesInPlace) {
  // The normalisations run as DWCONVs reading the prefix in place with its pixel stride, so the
  // buffer stays in SRAM and the 3x3 convolutions write their slices into it.
  const CompiledModel m = Check(DenseBlock(7, 9, 8), 0.97);
  int prefixes_in_place = 0;
  for (size_t i = 0; i < m.layers.size(); ++i) {
    const int in = m.network.layers[i].inputs[0];
    if (m.layers[i].on_chip.input[0] && m.network.PixelStride(in) != m.network.value(in).c) {
      EXPECT_EQ(m.layers[i].op, "depthwise_conv2d") << m.layers[i].name;
      EXPECT_NE(m.layers[i].tiling.find("unit=vector"), std::string::npos) << m.layers[i].tiling;
      ++prefixes_in_place;
    }
  }
  EXPECT_EQ(prefixes_in_place, 3);  // the block's three layers; the last reads it whole
  EXPECT_EQ(SlicesWrittenOnChip(m), 4);  // the first convolution's and the three 3x3's
}

TEST(TensorOps, ADenseBlockInRowStripsWritesItsConcatenationInPlace) {
  // On 4 KiB of SRAM a quarter is 1 KiB: each layer's normalisation -> 1x1 -> 3x3 splits in row
  // strips, which read rows of the block's prefixes and write rows of their 4 channels: views of
  // the placed concatenation and a concatenation of rows placed inside its channel slice, so no
  // copy (before, every strip's output was copied into its slice).
  ir::Graph f = DenseBlock(14, 9, 16);
  StatusOr<ir::Graph> q = PipelineAndQuantize(f);
  ASSERT_TRUE(q.ok()) << q.status().message();
  CompileOptions strips;
  strips.row_strips = CompileOptions::RowStrips::kOn;
  const CompiledModel m = ExpectBitExact(*q, Config({"sram.size_bytes=4096"}), 2, strips);
  EXPECT_GE(m.row_strip_groups.size(), 3u);
  EXPECT_EQ(m.network.concats_placed, 3 + int(m.row_strip_groups.size()));
  for (const ModelLayer& l : m.layers) {
    EXPECT_EQ(l.op.find("copy"), std::string::npos) << l.name;
    EXPECT_FALSE(l.on_cpu) << l.name;
  }
}

TEST(TensorOps, ADenseBlocksStripsRunBesideItsConcatenationWhichStaysOnChip) {
  // 32 x 24: the block's 18,432-byte concatenation fits 32 KiB, but not beside the
  // normalisations' outputs (up to 15,360 bytes) and the 1x1 convolutions' (12,288). Beside the
  // concatenation every pair's strips take a quarter of what it leaves, and each chain
  // (normalisation -> 1x1 -> 3x3) takes as many rows as fit twice over beside it and the
  // chain's constants: the concatenation stays on chip and only the input, the constants and the
  // output move, where strips sized by a quarter of the SRAM sent it to DRAM. Bit-exact, and a
  // tuning of it compiles as searched.
  ir::Graph f = DenseBlock(32, 24, 16);
  StatusOr<ir::Graph> q = PipelineAndQuantize(f);
  ASSERT_TRUE(q.ok()) << q.status().message();
  const spec::NpuConfig config = Config({"sram.size_bytes=32768"});
  const StripOptions beside = {.every_pair = true, .keep_halos = true, .beside_concats = true};
  const std::vector<RowStripPair> pairs = RowStripPairs(config, *q, beside);
  // Each layer's normalisation -> 1x1 and 1x1 -> 3x3, and the block's normalisation -> 1x1.
  ASSERT_EQ(pairs.size(), 7u);
  for (const RowStripPair& pair : pairs) {
    EXPECT_EQ(pair.concat, 32 * 24 * 24) << pair.consumer;
    EXPECT_EQ(pair.limit, (32768 - 32 * 24 * 24) / 4) << pair.consumer;
  }
  for (const RowStripPair& pair : RowStripPairs(config, *q)) EXPECT_EQ(pair.concat, 0);
  ir::Graph split = q->Clone();
  StatusOr<std::vector<RowStripGroup>> groups = SplitRowStrips(config, split, {}, beside);
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  ASSERT_EQ(groups->size(), 4u);
  for (const RowStripGroup& g : *groups) {
    EXPECT_EQ(g.nodes.size(), &g == &groups->back() ? 2u : 3u) << g.name();
    EXPECT_GT(g.strips.size(), 2u) << g.name();
  }
  ExpectSameBytes(*q, split, {1u, 2u});
  CompileOptions on;
  on.row_strips = CompileOptions::RowStrips::kOn;
  on.keep_halos = true;
  const CompiledModel quarter = ExpectBitExact(*q, config, 1, on);
  on.strips_beside_concats = true;
  const CompiledModel m = ExpectBitExact(*q, config, 2, on);
  EXPECT_TRUE(m.strips_beside_concats);
  EXPECT_EQ(m.row_strip_groups.size(), 4u);
  // Only the output is written (reads: the input, the constants once, the instructions).
  EXPECT_EQ(m.cost.dram_write_bytes, 32u * 24 * 5);
  EXPECT_GT(quarter.cost.dram_bytes(), m.cost.dram_bytes() + 32 * 24 * 24);
  StatusOr<Tuning> t = TuneModel(config, *q, on, 2, MakeTuningKey("test", *q, config));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_TRUE(t->beside_concats);
  StatusOr<CompiledModel> tuned = CompileModel(config, *q, WithTuning({}, *t));
  ASSERT_TRUE(tuned.ok()) << tuned.status().message();
  EXPECT_TRUE(tuned->strips_beside_concats);
  EXPECT_EQ(tuned->cost.cycles, t->tuned_cycles);
  EXPECT_EQ(tuned->cost.dram_bytes(), t->tuned_dram_bytes);
}

TEST(TensorOps, AConcatenationReadWholeStaysOnChip) {
  // An inception block read whole by a convolution: its convolutions (ACT) and its pool (POOL)
  // write their slices into SRAM with the concatenation's pixel stride, the convolution reads the
  // buffer in place.
  FloatBuilder b("inception");
  const CompiledModel m = Check(b.Finish(b.Conv(Inception(b), 15, 5, 3)), 0.98);
  EXPECT_EQ(m.network.concats_placed, 1);
  EXPECT_EQ(SlicesWrittenOnChip(m), 3);
  EXPECT_TRUE(m.layers.back().on_chip.input[0]);
}

// A 1-D convolution of `k` taps at stride `s` over `in_c` channels, unpadded unless `pad`.
ir::Tensor* Conv1d(FloatBuilder& b, ir::Tensor* x, int64_t in_c, int64_t out_c, int64_t k,
                   int64_t s, int64_t pad = 0) {
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{1, k});
  a.Set("strides", std::vector<int64_t>{1, s});
  a.Set("pads", std::vector<int64_t>{0, pad, 0, pad});
  return b.Op(OpKind::kConv, {x, b.Const({out_c, in_c, 1, k}), b.Const({out_c}, 0.1f)}, a);
}

const ModelLayer* LayerNamed(const CompiledModel& m, const std::string& prefix) {
  for (const ModelLayer& l : m.layers) {
    if (l.name.rfind(prefix, 0) == 0) return &l;
  }
  return nullptr;
}

TEST(TensorOps, AWideStridedKernelReadsItsStrideAsChannels) {
  // 24 taps at stride 4 over 2 channels (two CONVs of 15 and 9 taps) read as 6 taps over 8
  // channels (one CONV); a padded one and one whose kernel is no multiple of its stride stay.
  FloatBuilder b("stride_fold");
  ir::Tensor* x = b.Op(OpKind::kRelu, {Conv1d(b, b.Input({1, 2, 1, 96}), 2, 6, 24, 4)});
  ir::Tensor* padded = Conv1d(b, x, 6, 4, 20, 2, 2);
  ir::Tensor* odd = Conv1d(b, x, 6, 4, 18, 4);
  ir::Tensor* y =
      b.Op(OpKind::kConcat,
           {b.Op(OpKind::kGlobalAveragePool, {padded}), b.Op(OpKind::kGlobalAveragePool, {odd})},
           Attr("axis", int64_t{1}));
  const CompiledModel m = Check(b.Finish(y), 0.99);
  int folded = 0;
  for (const ModelLayer& l : m.layers)
    folded += l.note.find("folded into the channels") != std::string::npos;
  EXPECT_EQ(folded, 1);
  const ModelLayer* first = LayerNamed(m, "conv");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->note,
            "stride 4 folded into the channels: 4 pixels of 2 channel(s) read as one of 8, 24 "
            "taps as 6");
  // A one-dimensional network: it runs as columns (W x 1 x C).
  EXPECT_EQ(first->shape.rfind("24x1x8 -> 19x1x6, 6x1/1", 0), 0u) << first->shape;
}

TEST(TensorOps, AOneDimensionalNetworkRunsAsColumns) {
  // A signal of 200 samples: a padded convolution, a max pool, a dilated convolution, an
  // addition, a sigmoid (LUT), a global pool, a classifier and a softmax (on the control
  // core), all as W x 1 columns; the same layers over a 2-D plane stay as they are.
  for (const bool signal : {true, false}) {
    SCOPED_TRACE(signal ? "signal" : "plane");
    FloatBuilder b(signal ? "signal" : "plane");
    ir::Tensor* x = b.Input(signal ? ir::Shape{1, 3, 1, 200} : ir::Shape{1, 3, 4, 50});
    x = b.Op(OpKind::kRelu, {Conv1d(b, x, 3, 8, 5, 1, 2)});
    ir::Attributes pool;
    pool.Set("kernel_shape", std::vector<int64_t>{1, 4});
    pool.Set("strides", std::vector<int64_t>{1, 4});
    x = b.Op(OpKind::kMaxPool, {x}, pool);
    ir::Attributes dilated;
    dilated.Set("kernel_shape", std::vector<int64_t>{1, 3});
    dilated.Set("dilations", std::vector<int64_t>{1, 2});
    dilated.Set("pads", std::vector<int64_t>{0, 2, 0, 2});
    ir::Tensor* y = b.Op(OpKind::kConv, {x, b.Const({8, 8, 1, 3}), b.Const({8}, 0.1f)}, dilated);
    y = b.Op(OpKind::kSigmoid, {b.Op(OpKind::kAdd, {x, y})});
    y = b.Op(OpKind::kGlobalAveragePool, {y});
    y = b.Op(OpKind::kFlatten, {y});
    y = b.Op(OpKind::kGemm, {y, b.Const({5, 8}), b.Const({5}, 0.1f)}, Attr("transB", int64_t{1}));
    y = b.Op(OpKind::kSoftmax, {y}, Attr("axis", int64_t{-1}));  // on the control core
    const CompiledModel m = Check(b.Finish(y), 0.99);
    EXPECT_EQ(CpuLayers(m, "softmax"), 1);
    const ModelLayer* pool_layer = LayerNamed(m, "max_pool");
    ASSERT_NE(pool_layer, nullptr);
    EXPECT_EQ(pool_layer->shape, signal ? "200x1x8 -> 50x1x8, 4x1/4" : "4x50x8 -> 4x12x8, 1x4/1");
  }
}

TEST(TensorOps, AConcatenationOfAGraphInputIsPlacedWithACopy) {
  // The host writes the graph input dense, so the DMA copies it into its slice; the convolution
  // writes its own slice.
  FloatBuilder b("input_concat");
  ir::Tensor* x = b.Input({1, 3, 5, 5});
  ir::Tensor* y = b.Op(OpKind::kConcat, {x, b.Conv(x, 3, 2, 3)}, Attr("axis", int64_t{1}));
  const CompiledModel m = Check(b.Finish(b.Conv(y, 5, 4, 1)), 0.99);
  EXPECT_EQ(m.network.concats_placed, 1);
  EXPECT_EQ(NpuLayers(m, "copy"), 1);
  EXPECT_EQ(AllCpuLayers(m), 0);
}

TEST(TensorOps, AConcatenationNeedingTwoCopiesGetsBoth) {
  // The graph input, which the host writes dense, twice: each is copied into its slice, two
  // copies inserted before the one concatenation (inserting them one by one once lost it).
  FloatBuilder b("input_twice");
  ir::Tensor* x = b.Input({1, 3, 5, 5});
  ir::Tensor* y = b.Op(OpKind::kConcat, {x, x, b.Conv(x, 3, 2, 3)}, Attr("axis", int64_t{1}));
  const CompiledModel m = Check(b.Finish(b.Conv(y, 8, 4, 1)), 0.99);
  EXPECT_EQ(m.network.concats_placed, 1);
  EXPECT_EQ(NpuLayers(m, "copy"), 2);
  EXPECT_EQ(AllCpuLayers(m), 0);
}

// `units` ShuffleNet v2 units over 2 x `half` channels: a channel shuffle of two groups, a split
// into halves, a 3x3 convolution and ReLU on the second, the first concatenated with it.
ir::Tensor* ShuffleUnits(FloatBuilder& b, ir::Tensor* x, int units, int64_t half) {
  for (int unit = 0; unit < units; ++unit) {
    x = b.Op(OpKind::kChannelShuffle, {x}, Attr("group", int64_t{2}));
    ir::Attributes split = Attr("axis", int64_t{1});
    split.Set("split", std::vector<int64_t>{half, half});
    const std::string name = "split" + std::to_string(unit);
    ir::Node* s = b.graph().AddNode(OpKind::kSplit, name, {x}, {name + ".0", name + ".1"}, split);
    ir::Tensor* branch = b.Op(OpKind::kRelu, {b.Conv(s->output(1), half, half, 3)});
    x = b.Op(OpKind::kConcat, {s->output(0), branch}, Attr("axis", int64_t{1}));
  }
  return x;
}

TEST(TensorOps, ChannelSlicesAreViewsOrCopies) {
  // Two ShuffleNet v2 units: a shuffle (a DMA copy that permutes), its halves split (the half a
  // convolution reads is a view, the half passed through is copied into its slice of the
  // concatenation), the concatenation placed, and shuffled again. Then slices a CPU op reads, and
  // a graph output, are gathered dense by DMA; a slice of a slice is a view of the first's
  // buffer.
  FloatBuilder b("shuffle_units");
  ir::Tensor* x = b.Op(OpKind::kRelu, {b.Conv(b.Input({1, 3, 6, 7}), 3, 10, 3)});
  x = ShuffleUnits(b, x, 2, 5);
  ir::Tensor* head = b.Op(OpKind::kSlice, {x, b.Ints({2}), b.Ints({9}), b.Ints({1})});
  ir::Tensor* inner = b.Op(OpKind::kSlice, {head, b.Ints({1}), b.Ints({4}), b.Ints({1})});
  ir::Tensor* wide = b.Op(OpKind::kTranspose, {b.Op(OpKind::kRelu, {b.Conv(inner, 3, 4, 1)})},
                          Attr("perm", std::vector<int64_t>{0, 1, 3, 2}));
  ir::Tensor* tail = b.Op(OpKind::kSlice, {x, b.Ints({6}), b.Ints({10}), b.Ints({1})});
  ir::Tensor* y = b.Op(
      OpKind::kAdd,
      {b.Op(OpKind::kTranspose, {tail}, Attr("perm", std::vector<int64_t>{0, 1, 3, 2})), wide});
  const CompiledModel m = Check(b.Finish(y), 0.99);
  EXPECT_EQ(m.network.concats_placed, 2);
  EXPECT_EQ(NpuLayers(m, "copy"), 3);   // the two passed-through halves, the sliced tail
  EXPECT_EQ(NpuLayers(m, "slice"), 0);  // every slice a view or a copy
  EXPECT_EQ(NpuLayers(m, "channel_shuffle"), 2);
  EXPECT_EQ(AllCpuLayers(m), 2);  // the transposes of the innermost axis
}

TEST(TensorOps, ChannelShufflesAreScatteredLoads) {
  // Groups 3, 2 and 4 over 12 and 6 channels of a 5x7 plane: a dense shuffle; one whose input is
  // a view (half of a split) and whose output is its slice of a concatenation; one of the
  // concatenation that is the graph output. All by DMA, none on the control core.
  FloatBuilder b("shuffles");
  ir::Tensor* x = b.Op(OpKind::kRelu, {b.Conv(b.Input({1, 3, 5, 7}), 3, 12, 3)});
  x = b.Op(OpKind::kChannelShuffle, {x}, Attr("group", int64_t{3}));
  ir::Attributes split = Attr("axis", int64_t{1});
  split.Set("split", std::vector<int64_t>{6, 6});
  ir::Node* s = b.graph().AddNode(OpKind::kSplit, "split", {x}, {"split.0", "split.1"}, split);
  ir::Tensor* half = b.Op(OpKind::kChannelShuffle, {s->output(0)}, Attr("group", int64_t{2}));
  ir::Tensor* branch = b.Op(OpKind::kRelu, {b.Conv(s->output(1), 6, 6, 1)});
  x = b.Op(OpKind::kConcat, {half, branch}, Attr("axis", int64_t{1}));
  x = b.Op(OpKind::kChannelShuffle, {x}, Attr("group", int64_t{4}));
  const CompiledModel m = Check(b.Finish(x), 0.99);
  // The split's halves (bounds on whole groups of 3) are windows of the first shuffle, which goes.
  EXPECT_EQ(NpuLayers(m, "channel_shuffle"), 4);
  EXPECT_EQ(AllCpuLayers(m), 0);
  EXPECT_EQ(m.network.concats_placed, 1);
  EXPECT_EQ(NpuLayers(m, "copy"), 0);  // the shuffle writes its slice
}

TEST(TensorOps, ShuffleUnitsReadWindowsOfTheirShuffles) {
  // Three ShuffleNet v2 units over 12 channels: each shuffle's halves (6 channels, 3 a group) are
  // windows of it, which read the concatenation before it, so no unit copies a byte twice: the
  // half a convolution reads is its own dense tensor, the half passed through is written into its
  // slice of the next concatenation. On chip (the default config) the windows are LUTs.
  FloatBuilder b("shuffle_windows");
  ir::Tensor* x = b.Op(OpKind::kRelu, {b.Conv(b.Input({1, 3, 6, 7}), 3, 12, 3)});
  x = ShuffleUnits(b, x, 3, 6);
  const CompiledModel m = Check(b.Finish(b.Conv(x, 12, 4, 1)), 0.99);
  EXPECT_EQ(NpuLayers(m, "channel_shuffle"), 6);  // two windows a unit, no whole shuffle
  EXPECT_EQ(NpuLayers(m, "copy"), 0);
  EXPECT_EQ(AllCpuLayers(m), 0);
  EXPECT_EQ(m.network.concats_placed, 3);
  int on_chip = 0;
  for (const ModelLayer& l : m.layers) {
    if (l.op != "channel_shuffle") continue;
    EXPECT_NE(l.note.find("of a shuffle of 2 groups: 3 channels from"), std::string::npos)
        << l.note;
    on_chip += l.on_chip.input[0] && l.on_chip.output;
  }
  EXPECT_EQ(on_chip, 6);
}

const ModelLayer& LayerOf(const CompiledModel& m, const std::string& op, int k) {
  for (const ModelLayer& l : m.layers) {
    if (l.op == op && k-- == 0) return l;
  }
  ADD_FAILURE() << "no " << op;
  return m.layers.at(0);
}

TEST(TensorOps, AShuffleBeyondTheLoadsElementStrideRunsOnTheControlCore) {
  // 512 channels in 256 groups of 2: more than the 8-bit sram_elem_stride; then 512 groups of 1,
  // which moves nothing and is a plain copy however many groups.
  FloatBuilder b("wide_shuffle");
  ir::Tensor* x = b.Conv(b.Input({1, 3, 2, 3}), 3, 512, 1);
  x = b.Op(OpKind::kChannelShuffle, {x}, Attr("group", int64_t{256}));
  x = b.Op(OpKind::kChannelShuffle, {x}, Attr("group", int64_t{512}));
  const CompiledModel m = Check(b.Finish(b.Conv(x, 512, 3, 1)), 0.99);
  const ModelLayer &wide = LayerOf(m, "channel_shuffle", 0),
                   &none = LayerOf(m, "channel_shuffle", 1);
  EXPECT_TRUE(wide.on_cpu);
  EXPECT_NE(wide.note.find("group 256 is above the LOAD's largest SRAM element stride, 255"),
            std::string::npos)
      << wide.note;
  EXPECT_FALSE(none.on_cpu);
  EXPECT_NE(none.note.find("moves no channel"), std::string::npos) << none.note;
}

}  // namespace
}  // namespace npu::compiler::testing
