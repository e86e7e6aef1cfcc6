// Whole-pipeline checks that the NHWC layout keeps transposes at the borders of the blocks torch
// exports of torchvision models are made of: squeeze-excite (GlobalAveragePool -> 1x1 convs ->
// HardSigmoid -> Mul), a densenet block (Concat -> BatchNormalization -> Relu -> Conv), a
// shufflenet unit (Split on channels, channel shuffle, Concat) and an LRASPP head (Sigmoid gate,
// bilinear Resize to sizes, Add). Each graph keeps one Transpose at the input and one at the
// output, and the pipeline leaves its outputs unchanged.
#include <gtest/gtest.h>

#include "tests/passes/pass_test_util.h"

namespace npu::compiler::passes::testing {
namespace {

ir::Tensor* Op(ir::Graph& g, ir::OpKind k, const std::string& name, std::vector<ir::Tensor*> in,
               ir::Attributes a = {}) {
  return g.AddNode(k, name, std::move(in), {name}, std::move(a))->output();
}

ir::Tensor* Conv1x1(ir::Graph& g, const std::string& name, ir::Tensor* x, int64_t in_c,
                    int64_t out_c, uint32_t seed) {
  return Op(g, ir::OpKind::kConv, name,
            {x, RandomConst(g, name + ".w", {out_c, in_c, 1, 1}, seed),
             RandomConst(g, name + ".b", {out_c}, seed + 1)});
}

// Runs the pipeline; the outputs must not change and only two Transposes may remain.
void ExpectBordersOnly(ir::Graph& g) {
  const std::vector<HostTensor> in = RandomInputs(g);
  const std::vector<HostTensor> before = Interpreted(g, in);
  PassContext ctx;
  const Status s = RunPipeline(g, {}, ctx);
  ASSERT_TRUE(s.ok()) << s.message();
  const std::vector<HostTensor> after = Interpreted(g, in);
  ASSERT_EQ(before.size(), after.size());
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_LE(interp::MaxRelativeError(after[i], before[i]), 1e-5);
  }
  EXPECT_EQ(CountKind(g, ir::OpKind::kTranspose), 2u) << ir::PrintGraph(g);
  for (const ir::Node* t : g.NodesOfKind(ir::OpKind::kTranspose)) {
    const bool at_input = t->input(0) == g.inputs()[0];
    EXPECT_TRUE(at_input || g.IsGraphOutput(t->output(0))) << t->name();
  }
}

TEST(LayoutBlocks, SqueezeExcite) {
  ir::Graph g("se");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 8, 6, 6}, ir::Layout::kNCHW);
  ir::Tensor* c = AddConv(g, "c", x, 8, 8, 1, true)->output();
  ir::Tensor* h = Op(g, ir::OpKind::kHardSwish, "hs", {c});
  ir::Tensor* p = Op(g, ir::OpKind::kGlobalAveragePool, "gap", {h});
  ir::Tensor* r = Op(g, ir::OpKind::kRelu, "r", {Conv1x1(g, "fc1", p, 8, 4, 2)});
  ir::Tensor* s = Op(g, ir::OpKind::kHardSigmoid, "gate", {Conv1x1(g, "fc2", r, 4, 8, 4)},
                     A({{"alpha", 1 / 6.0f}, {"beta", 0.5f}}));
  g.AddOutput(Op(g, ir::OpKind::kMul, "y", {s, h}));
  Infer(g);
  ExpectBordersOnly(g);
}

TEST(LayoutBlocks, DenseNetBlock) {
  ir::Graph g("dense");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 4, 6, 6}, ir::Layout::kNCHW);
  ir::Tensor* c = AddConv(g, "c", x, 4, 4, 1)->output();
  ir::Tensor* cat = Op(g, ir::OpKind::kConcat, "cat", {x, c}, A({{"axis", int64_t{1}}}));
  ir::Tensor* r = Op(g, ir::OpKind::kRelu, "r", {AddBatchNorm(g, "bn", cat, 8, 3)->output()});
  ir::Tensor* pad = Op(g, ir::OpKind::kPad, "pad",
                       {AddConv(g, "c2", r, 8, 4, 5)->output(),
                        g.AddConstant<int64_t>("pads", {8}, {0, 0, 1, 1, 0, 0, 1, 1})},
                       A({{"mode", std::string("constant")}}));
  g.AddOutput(Op(g, ir::OpKind::kAveragePool, "y", {pad},
                 A({{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}}})));
  Infer(g);
  ExpectBordersOnly(g);
  EXPECT_EQ(CountKind(g, ir::OpKind::kBatchNormalization), 0u);
  EXPECT_EQ(CountKind(g, ir::OpKind::kPad), 0u);
}

TEST(LayoutBlocks, ShuffleNetUnit) {
  ir::Graph g("shuffle");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 8, 6, 6}, ir::Layout::kNCHW);
  ir::Tensor* stem = AddConv(g, "stem", x, 8, 8, 7)->output();
  ir::Node* split = g.AddNode(ir::OpKind::kSplit, "split", {stem}, {"a", "b"},
                              A({{"axis", int64_t{1}}, {"split", Ints{4, 4}}}));
  ir::Tensor* b = Op(g, ir::OpKind::kRelu, "rb", {Conv1x1(g, "pw", split->output(1), 4, 4, 1)});
  ir::Tensor* cat =
      Op(g, ir::OpKind::kConcat, "cat", {split->output(0), b}, A({{"axis", int64_t{1}}}));
  ir::Tensor* r5 =
      Op(g, ir::OpKind::kReshape, "r5", {cat, g.AddConstant<int64_t>("s5", {5}, {1, 2, 4, 6, 6})});
  ir::Tensor* t = Op(g, ir::OpKind::kTranspose, "t", {r5}, A({{"perm", Ints{0, 2, 1, 3, 4}}}));
  g.AddOutput(
      Op(g, ir::OpKind::kReshape, "y", {t, g.AddConstant<int64_t>("s4", {4}, {1, 8, 6, 6})}));
  Infer(g);
  ExpectBordersOnly(g);
  EXPECT_EQ(CountKind(g, ir::OpKind::kChannelShuffle), 1u);
}

TEST(LayoutBlocks, LrasppHead) {
  ir::Graph g("lraspp");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 4, 8, 8}, ir::Layout::kNCHW);
  ir::Tensor* low = AddConv(g, "low", x, 4, 4, 1)->output();
  ir::Tensor* high = Op(g, ir::OpKind::kMaxPool, "high", {low},
                        A({{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}}}));
  ir::Tensor* cbr = Op(g, ir::OpKind::kRelu, "cbr", {Conv1x1(g, "cbr.c", high, 4, 4, 2)});
  ir::Tensor* gate =
      Op(g, ir::OpKind::kSigmoid, "gate",
         {Conv1x1(g, "scale", Op(g, ir::OpKind::kGlobalAveragePool, "p", {high}), 4, 4, 3)});
  ir::Tensor* m = Op(g, ir::OpKind::kMul, "m", {cbr, gate});
  // Resize to low's spatial size, from a Shape -> Slice -> Concat chain (folded to constants).
  ir::Tensor* shape = Op(g, ir::OpKind::kShape, "shape", {low});
  ir::Tensor* hw =
      Op(g, ir::OpKind::kSlice, "hw",
         {shape, g.AddConstant<int64_t>("st", {1}, {2}), g.AddConstant<int64_t>("en", {1}, {4})});
  ir::Tensor* sizes =
      Op(g, ir::OpKind::kConcat, "sizes", {g.AddConstant<int64_t>("nc", {2}, {1, 4}), hw},
         A({{"axis", int64_t{0}}}));
  ir::Tensor* up = g.AddNode(ir::OpKind::kResize, "up", {m, nullptr, nullptr, sizes}, {"up"},
                             A({{"mode", std::string("linear")},
                                {"coordinate_transformation_mode", std::string("half_pixel")}}))
                       ->output();
  g.AddOutput(Op(g, ir::OpKind::kAdd, "y", {Conv1x1(g, "cls", low, 4, 4, 5), up}));
  Infer(g);
  ExpectBordersOnly(g);
}

}  // namespace
}  // namespace npu::compiler::passes::testing
