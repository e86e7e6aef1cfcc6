// The passes added for torch's exports, each on a small graph where it fires (outputs unchanged
// within 1e-5 of their scale) and one where it must not: canonicalize-1d, recognize-layernorm,
// recognize-channel-shuffle, reduce-mean-to-gap, fold-pad, batchnorm-to-conv, fold-scale-bias.
#include <gtest/gtest.h>

#include "tests/passes/pass_test_util.h"

namespace npu::compiler::passes::testing {
namespace {

ir::Tensor* Input4D(ir::Graph& g, ir::Shape s = {1, 4, 6, 6}) {
  return g.AddInput("x", ir::DType::kFloat32, std::move(s), ir::Layout::kNCHW);
}

ir::Tensor* Op(ir::Graph& g, ir::OpKind k, const std::string& name, std::vector<ir::Tensor*> in,
               ir::Attributes a = {}) {
  return g.AddNode(k, name, std::move(in), {name}, std::move(a))->output();
}

TEST(Canonicalize1D, ConvReluPoolBecomeTwoD) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 16}, ir::Layout::kNone);
  ir::Tensor* c = Op(g, ir::OpKind::kConv, "c", {x, RandomConst(g, "w", {4, 3, 3}, 1)},
                     A({{"kernel_shape", Ints{3}}, {"pads", Ints{1, 1}}, {"strides", Ints{1}}}));
  ir::Tensor* r = Op(g, ir::OpKind::kRelu, "r", {c});
  ir::Tensor* b = AddBatchNorm(g, "bn", r, 4, 3)->output();
  ir::Tensor* p = Op(g, ir::OpKind::kMaxPool, "p", {b},
                     A({{"kernel_shape", Ints{2}}, {"strides", Ints{2}}, {"pads", Ints{0, 0}}}));
  g.AddOutput(Op(g, ir::OpKind::kFlatten, "f", {p}));
  Infer(g);
  const PassContext ctx = ExpectSoundPass("canonicalize-1d", g);
  EXPECT_EQ(ctx.Stat("canonicalize-1d.rewritten"), 3);
  for (const ir::Node* n : g.nodes()) {
    if (n->kind() != ir::OpKind::kUnsqueeze && n->kind() != ir::OpKind::kFlatten) {
      EXPECT_EQ(n->input(0)->shape().size(), 4u) << n->name();
    }
  }
  EXPECT_EQ(CountKind(g, ir::OpKind::kSqueeze), 0u) << ir::PrintGraph(g);
}

TEST(Canonicalize1D, LeavesTwoDAlone) {
  ir::Graph g("g");
  g.AddOutput(AddConv(g, "c", Input4D(g), 4, 4, 1)->output());
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("canonicalize-1d", g).Stat("canonicalize-1d.rewritten"), 0);
}

// torch's LayerNorm export over the last axis of x [2,3,8].
ir::Tensor* LayerNormChain(ir::Graph& g, ir::Tensor* x, float pow) {
  const ir::Attributes last = A({{"axes", Ints{-1}}, {"keepdims", int64_t{1}}});
  ir::Tensor* m = Op(g, ir::OpKind::kReduceMean, "m", {x}, last);
  ir::Tensor* d = Op(g, ir::OpKind::kSub, "d", {x, m});
  ir::Tensor* p = Op(g, ir::OpKind::kPow, "p", {d, g.AddConstant<float>("two", {}, {pow})});
  ir::Tensor* v = Op(g, ir::OpKind::kReduceMean, "v", {p}, last);
  ir::Tensor* e = Op(g, ir::OpKind::kAdd, "e", {v, g.AddConstant<float>("eps", {}, {1e-5f})});
  ir::Tensor* s = Op(g, ir::OpKind::kSqrt, "s", {e});
  ir::Tensor* y = Op(g, ir::OpKind::kDiv, "y", {d, s});
  ir::Tensor* k = Op(g, ir::OpKind::kMul, "k", {y, RandomConst(g, "gamma", {8}, 2, 0.5f, 1.5f)});
  return Op(g, ir::OpKind::kAdd, "out", {k, RandomConst(g, "beta", {8}, 3)});
}

TEST(RecognizeLayerNorm, TorchChainBecomesOneNode) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3, 8}, ir::Layout::kNone);
  g.AddOutput(LayerNormChain(g, x, 2.0f));
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("recognize-layernorm", g).Stat("recognize-layernorm.replaced"), 1);
  EXPECT_EQ(g.nodes().size(), 1u) << ir::PrintGraph(g);
  EXPECT_EQ(g.nodes()[0]->kind(), ir::OpKind::kLayerNormalization);
  EXPECT_EQ(g.outputs()[0]->name(), "out");
}

TEST(RecognizeLayerNorm, OtherExponentIsNotALayerNorm) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3, 8}, ir::Layout::kNone);
  g.AddOutput(LayerNormChain(g, x, 3.0f));
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("recognize-layernorm", g).Stat("recognize-layernorm.replaced"), 0);
}

ir::Tensor* ShuffleChain(ir::Graph& g, ir::Tensor* x, Ints perm) {
  ir::Tensor* r =
      Op(g, ir::OpKind::kReshape, "r5", {x, g.AddConstant<int64_t>("s5", {5}, {1, 2, 2, 6, 6})});
  ir::Tensor* t = Op(g, ir::OpKind::kTranspose, "t5", {r}, A({{"perm", perm}}));
  return Op(g, ir::OpKind::kReshape, "y", {t, g.AddConstant<int64_t>("s4", {4}, {1, 4, 6, 6})});
}

TEST(RecognizeChannelShuffle, ThreeNodesBecomeOne) {
  ir::Graph g("g");
  g.AddOutput(ShuffleChain(g, Input4D(g), {0, 2, 1, 3, 4}));
  Infer(g);
  ExpectSoundPass("recognize-channel-shuffle", g);
  ASSERT_EQ(g.nodes().size(), 1u) << ir::PrintGraph(g);
  EXPECT_EQ(g.nodes()[0]->kind(), ir::OpKind::kChannelShuffle);
  EXPECT_EQ(g.nodes()[0]->attrs().GetInt("group", 0), 2);
}

TEST(RecognizeChannelShuffle, OtherPermutationIsNotAShuffle) {
  ir::Graph g("g");
  g.AddOutput(ShuffleChain(g, Input4D(g), {0, 1, 2, 4, 3}));
  Infer(g);
  ExpectSoundPass("recognize-channel-shuffle", g);
  EXPECT_EQ(CountKind(g, ir::OpKind::kChannelShuffle), 0u);
}

TEST(ReduceMeanToGap, SpatialMeanBecomesGlobalPool) {
  ir::Graph g("g");
  ir::Tensor* x = Input4D(g);
  g.AddOutput(Op(g, ir::OpKind::kReduceMean, "m", {x},
                 A({{"axes", Ints{-1, 2}}, {"keepdims", int64_t{0}}})));
  g.AddOutput(Op(g, ir::OpKind::kReduceMean, "k", {x}, A({{"axes", Ints{2, 3}}})));
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("reduce-mean-to-gap", g).Stat("reduce-mean-to-gap.replaced"), 2);
  EXPECT_EQ(CountKind(g, ir::OpKind::kGlobalAveragePool), 2u);
  EXPECT_EQ(g.FindTensor("m")->shape(), (ir::Shape{1, 4}));
}

TEST(ReduceMeanToGap, ChannelMeanStays) {
  ir::Graph g("g");
  g.AddOutput(Op(g, ir::OpKind::kReduceMean, "m", {Input4D(g)}, A({{"axes", Ints{1, 2}}})));
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("reduce-mean-to-gap", g).Stat("reduce-mean-to-gap.replaced"), 0);
}

ir::Tensor* PadThen(ir::Graph& g, ir::Tensor* x, float value, ir::OpKind reader) {
  ir::Tensor* p = Op(g, ir::OpKind::kPad, "pad",
                     {x, g.AddConstant<int64_t>("pads", {8}, {0, 0, 1, 0, 0, 0, 1, 2}),
                      g.AddConstant<float>("value", {}, {value})},
                     A({{"mode", std::string("constant")}}));
  if (reader == ir::OpKind::kConv) return AddConv(g, "c", p, 4, 4, 1)->output();
  return Op(g, reader, "pool", {p},
            A({{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{0, 0, 0, 0}}}));
}

TEST(FoldPad, ZeroPadFoldsIntoConvAndAveragePool) {
  for (ir::OpKind reader : {ir::OpKind::kConv, ir::OpKind::kAveragePool}) {
    ir::Graph g("g");
    g.AddOutput(PadThen(g, Input4D(g), 0.0f, reader));
    Infer(g);
    EXPECT_EQ(ExpectSoundPass("fold-pad", g).Stat("fold-pad.folded"), 1);
    EXPECT_EQ(CountKind(g, ir::OpKind::kPad), 0u);
  }
}

TEST(FoldPad, MaxPoolTakesMinusInfinityButNotZeroOfASignedInput) {
  ir::Graph g("g");
  g.AddOutput(PadThen(g, Input4D(g), -INFINITY, ir::OpKind::kMaxPool));
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("fold-pad", g).Stat("fold-pad.folded"), 1);
  ir::Graph h("h");
  h.AddOutput(PadThen(h, Input4D(h), 0.0f, ir::OpKind::kMaxPool));
  Infer(h);
  EXPECT_EQ(ExpectSoundPass("fold-pad", h).Stat("fold-pad.folded"), 0);
  ir::Graph k("k");
  k.AddOutput(PadThen(k, Input4D(k), 1.0f, ir::OpKind::kConv));  // conv pads with zeros only
  Infer(k);
  EXPECT_EQ(ExpectSoundPass("fold-pad", k).Stat("fold-pad.folded"), 0);
}

TEST(BatchNormToConv, StandaloneBatchNormBecomesDepthwiseConv) {
  ir::Graph g("g");
  ir::Tensor* x = Input4D(g);
  ir::Tensor* cat = Op(g, ir::OpKind::kConcat, "cat", {x, x}, A({{"axis", int64_t{1}}}));
  g.AddOutput(AddBatchNorm(g, "bn", cat, 8, 4)->output());
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("batchnorm-to-conv", g).Stat("batchnorm-to-conv.converted"), 1);
  EXPECT_EQ(CountKind(g, ir::OpKind::kBatchNormalization), 0u);
  EXPECT_EQ(g.FindTensor("bn")->producer()->attrs().GetInt("group", 0), 8);
}

TEST(BatchNormToConv, RankTwoBatchNormStays) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 4}, ir::Layout::kNone);
  g.AddOutput(AddBatchNorm(g, "bn", x, 4, 4)->output());
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("batchnorm-to-conv", g).Stat("batchnorm-to-conv.converted"), 0);
}

TEST(FoldScaleBias, ConvGemmAndMatMulAbsorbChannelConstants) {
  ir::Graph g("g");
  ir::Tensor* c = AddConv(g, "c", Input4D(g), 4, 3, 1, true)->output();
  ir::Tensor* m = Op(g, ir::OpKind::kMul, "m", {RandomConst(g, "s", {3, 1, 1}, 2), c});
  g.AddOutput(Op(g, ir::OpKind::kAdd, "a", {m, RandomConst(g, "t", {1, 3, 1, 1}, 3)}));
  ir::Tensor* v = g.AddInput("v", ir::DType::kFloat32, {2, 5, 4}, ir::Layout::kNone);
  ir::Tensor* mm = Op(g, ir::OpKind::kMatMul, "mm", {v, RandomConst(g, "w", {4, 6}, 4)});
  ir::Tensor* b = Op(g, ir::OpKind::kAdd, "b", {RandomConst(g, "bias", {6}, 5), mm});
  g.AddOutput(Op(g, ir::OpKind::kMul, "ls", {b, RandomConst(g, "gamma", {6}, 6)}));
  Infer(g);
  const PassContext ctx = ExpectSoundPass("fold-scale-bias", g);
  EXPECT_EQ(ctx.Stat("fold-scale-bias.mul"), 2);
  EXPECT_EQ(ctx.Stat("fold-scale-bias.add"), 1);
  EXPECT_EQ(CountKind(g, ir::OpKind::kMul), 0u) << ir::PrintGraph(g);
}

// torchvision's ConvNeXt: Linear on channels-last pixels, permuted back to NCHW, then its layer
// scale [C, 1, 1]: the scale moves back through the permutation into the weights and bias.
TEST(FoldScaleBias, ALayerScaleAfterATransposeFoldsThroughIt) {
  ir::Graph g("g");
  ir::Tensor* v = g.AddInput("v", ir::DType::kFloat32, {1, 5, 4, 8}, ir::Layout::kNone);
  ir::Tensor* mm = Op(g, ir::OpKind::kMatMul, "mm", {v, RandomConst(g, "w", {8, 6}, 1)});
  ir::Tensor* b = Op(g, ir::OpKind::kAdd, "b", {RandomConst(g, "bias", {6}, 2), mm});
  ir::Attributes perm;
  perm.Set("perm", std::vector<int64_t>{0, 3, 1, 2});
  ir::Tensor* t = Op(g, ir::OpKind::kTranspose, "t", {b}, perm);
  g.AddOutput(Op(g, ir::OpKind::kMul, "ls", {RandomConst(g, "gamma", {6, 1, 1}, 3), t}));
  Infer(g);
  const PassContext ctx = ExpectSoundPass("fold-scale-bias", g);
  EXPECT_EQ(ctx.Stat("fold-scale-bias.mul"), 1);
  EXPECT_EQ(CountKind(g, ir::OpKind::kMul), 0u) << ir::PrintGraph(g);
  EXPECT_EQ(CountKind(g, ir::OpKind::kTranspose), 1u);
}

// A constant varying along an axis that the transpose takes from the pixels, or a transposed
// result read twice, stays.
TEST(FoldScaleBias, ATransposedResultReadTwiceOrScaledAlongPixelsStays) {
  ir::Graph g("g");
  ir::Tensor* v = g.AddInput("v", ir::DType::kFloat32, {1, 5, 4, 8}, ir::Layout::kNone);
  ir::Attributes perm;
  perm.Set("perm", std::vector<int64_t>{0, 3, 1, 2});
  ir::Tensor* mm = Op(g, ir::OpKind::kMatMul, "mm", {v, RandomConst(g, "w", {8, 6}, 1)});
  ir::Tensor* t = Op(g, ir::OpKind::kTranspose, "t", {mm}, perm);
  g.AddOutput(Op(g, ir::OpKind::kMul, "rows", {t, RandomConst(g, "s", {5, 1}, 2)}));
  ir::Tensor* mm2 = Op(g, ir::OpKind::kMatMul, "mm2", {v, RandomConst(g, "w2", {8, 6}, 3)});
  ir::Tensor* t2 = Op(g, ir::OpKind::kTranspose, "t2", {mm2}, perm);
  g.AddOutput(Op(g, ir::OpKind::kMul, "ls", {t2, RandomConst(g, "gamma", {6, 1, 1}, 4)}));
  g.AddOutput(t2);
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("fold-scale-bias", g).stats.size(), 0u);
  EXPECT_EQ(CountKind(g, ir::OpKind::kMul), 2u);
}

TEST(FoldScaleBias, SpatialConstantOrSharedResultStays) {
  ir::Graph g("g");
  ir::Tensor* c = AddConv(g, "c", Input4D(g), 4, 3, 1)->output();
  g.AddOutput(Op(g, ir::OpKind::kMul, "m", {c, RandomConst(g, "s", {1, 1, 6, 6}, 2)}));
  g.AddOutput(Op(g, ir::OpKind::kAdd, "a", {c, RandomConst(g, "t", {3, 1, 1}, 3)}));
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("fold-scale-bias", g).stats.size(), 0u);
}

}  // namespace
}  // namespace npu::compiler::passes::testing
