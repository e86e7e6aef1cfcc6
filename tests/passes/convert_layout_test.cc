// NHWC layout conversion: where transposes go (graph borders only), what stays OIHW, how
// flattens keep the NCHW element order, and what is left alone.
#include <gtest/gtest.h>

#include "tests/passes/pass_test_util.h"

namespace npu::compiler::passes::testing {
namespace {

size_t Transposes(const ir::Graph& g) { return CountKind(g, ir::OpKind::kTranspose); }

TEST(ConvertLayout, ConvNetGetsOneTransposeAtTheInput) {
  // x -> conv -> bn -> relu -> add(., conv) -> global pool -> flatten -> gemm
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3, 8, 8}, ir::Layout::kNCHW);
  ir::Node* c1 = AddConv(g, "c1", x, 3, 4, 1, true);
  ir::Tensor* b = AddBatchNorm(g, "bn", c1->output(), 4, 2)->output();
  ir::Tensor* r = g.AddNode(ir::OpKind::kRelu, "relu", {b}, {"r"})->output();
  ir::Tensor* s = g.AddNode(ir::OpKind::kAdd, "add", {r, c1->output()}, {"s"})->output();
  ir::Tensor* p = g.AddNode(ir::OpKind::kGlobalAveragePool, "gap", {s}, {"p"})->output();
  ir::Tensor* f = g.AddNode(ir::OpKind::kFlatten, "flat", {p}, {"f"})->output();
  g.AddOutput(g.AddNode(ir::OpKind::kGemm, "fc", {f, RandomConst(g, "fc.w", {5, 4}, 3)}, {"y"},
                        A({{"transB", int64_t{1}}}))
                  ->output());
  Infer(g);
  ExpectSoundPass("convert-layout-nhwc", g);
  EXPECT_EQ(Transposes(g), 1u) << ir::PrintGraph(g);
  EXPECT_EQ(g.FindTensor("x_nhwc")->producer()->kind(), ir::OpKind::kTranspose);
  EXPECT_EQ(g.FindTensor("s")->layout(), ir::Layout::kNHWC);
  EXPECT_EQ(g.FindTensor("s")->shape(), (ir::Shape{2, 8, 8, 4}));
  EXPECT_EQ(g.FindTensor("c1.w")->shape(), (ir::Shape{4, 3, 3, 3}));  // weights stay OIHW
  EXPECT_EQ(g.FindTensor("f")->producer()->input(0), p);  // 1x1 pool: flatten needs no transpose
}

TEST(ConvertLayout, SpatialFlattenIntoGemmPermutesTheWeights) {
  // B as [K, N], and transposed as [N, K] (PyTorch's Linear), whose rows are permuted.
  for (const bool trans_b : {false, true}) {
    SCOPED_TRACE(trans_b);
    ir::Graph g("g");
    ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 4, 4}, ir::Layout::kNCHW);
    ir::Node* c = AddConv(g, "c", x, 3, 2, 1);
    ir::Tensor* f = g.AddNode(ir::OpKind::kFlatten, "flat", {c->output()}, {"f"})->output();
    ir::Tensor* w = RandomConst(g, "fc.w", trans_b ? ir::Shape{6, 32} : ir::Shape{32, 6}, 3);
    g.AddOutput(g.AddNode(ir::OpKind::kGemm, "fc", {f, w}, {"y"},
                          A({{"transB", int64_t{trans_b}}}))
                    ->output());
    Infer(g);
    ExpectSoundPass("convert-layout-nhwc", g);
    EXPECT_EQ(Transposes(g), 1u) << ir::PrintGraph(g);  // only the input's
    EXPECT_EQ(g.nodes().back()->input(1)->name(), "fc.w_nhwc");
  }
}

TEST(ConvertLayout, SpatialFlattenElsewhereGetsATransposeBack) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 4, 4}, ir::Layout::kNCHW);
  ir::Node* c = AddConv(g, "c", x, 3, 2, 1);
  g.AddOutput(g.AddNode(ir::OpKind::kFlatten, "flat", {c->output()}, {"f"})->output());
  g.AddOutput(
      g.AddNode(ir::OpKind::kSoftmax, "sm", {c->output()}, {"sm"}, A({{"axis", int64_t{1}}}))
          ->output());
  Infer(g);
  ExpectSoundPass("convert-layout-nhwc", g);
  EXPECT_EQ(Transposes(g), 2u) << ir::PrintGraph(g);  // input, and one back shared by both
  EXPECT_EQ(g.FindTensor("f")->producer()->input(0)->name(), "c_nchw");
}

TEST(ConvertLayout, FourDimensionalOutputKeepsItsNameAndLayout) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 4, 4}, ir::Layout::kNCHW);
  ir::Node* c = AddConv(g, "c", x, 3, 2, 1);
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "relu", {c->output()}, {"y"})->output());
  Infer(g);
  ExpectSoundPass("convert-layout-nhwc", g);
  const ir::Tensor* y = g.outputs()[0];
  EXPECT_EQ(y->name(), "y");
  EXPECT_EQ(y->layout(), ir::Layout::kNCHW);
  EXPECT_EQ(y->producer()->kind(), ir::OpKind::kTranspose);
  EXPECT_EQ(g.FindTensor("y_nhwc")->layout(), ir::Layout::kNHWC);
}

TEST(ConvertLayout, AnOutputListedTwiceIsConvertedOnce) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 4, 4}, ir::Layout::kNCHW);
  ir::Tensor* y = AddConv(g, "y", x, 3, 2, 1)->output();
  g.AddOutput(y);
  g.AddOutput(y);
  Infer(g);
  ExpectSoundPass("convert-layout-nhwc", g);
  EXPECT_EQ(g.outputs()[0], g.outputs()[1]);
  EXPECT_EQ(g.outputs()[0]->name(), "y");
  EXPECT_EQ(CountKind(g, ir::OpKind::kTranspose), 2u);
}

TEST(ConvertLayout, ConcatPadAndBroadcastConstantsFollow) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 4, 4}, ir::Layout::kNCHW);
  ir::Tensor* a = AddConv(g, "a", x, 3, 2, 1)->output();
  ir::Tensor* b = AddConv(g, "b", x, 3, 3, 2)->output();
  ir::Tensor* cat =
      g.AddNode(ir::OpKind::kConcat, "cat", {a, b}, {"cat"}, A({{"axis", int64_t{1}}}))->output();
  ir::Tensor* scaled =
      g.AddNode(ir::OpKind::kMul, "scale", {cat, RandomConst(g, "k", {5, 1, 1}, 4)}, {"scaled"})
          ->output();
  ir::Tensor* padded =
      g.AddNode(ir::OpKind::kPad, "pad",
                {scaled, g.AddConstant<int64_t>("pads", {8}, {0, 0, 1, 2, 0, 0, 3, 0})}, {"padded"})
          ->output();
  g.AddOutput(
      g.AddNode(ir::OpKind::kMaxPool, "pool", {padded}, {"y"}, A({{"kernel_shape", Ints{2, 2}}}))
          ->output());
  Infer(g);
  ExpectSoundPass("convert-layout-nhwc", g);
  EXPECT_EQ(g.FindTensor("cat")->producer()->attrs().GetInt("axis", 0), 3);
  EXPECT_EQ(g.FindTensor("padded")->shape(), (ir::Shape{1, 8, 6, 5}));
  EXPECT_EQ(Transposes(g), 2u);  // input, output
}

TEST(ConvertLayout, LeavesMlpsAndNhwcGraphsAlone) {
  ir::Graph mlp("mlp");
  ir::Tensor* x = mlp.AddInput("x", ir::DType::kFloat32, {1, 4}, ir::Layout::kNone);
  mlp.AddOutput(
      mlp.AddNode(ir::OpKind::kGemm, "fc", {x, RandomConst(mlp, "w", {4, 2}, 1)}, {"y"})->output());
  Infer(mlp);
  EXPECT_TRUE(ExpectSoundPass("convert-layout-nhwc", mlp).stats.empty());

  ir::Graph nhwc("nhwc");
  ir::Tensor* in = nhwc.AddInput("x", ir::DType::kFloat32, {1, 4, 4, 3}, ir::Layout::kNHWC);
  nhwc.AddOutput(AddConv(nhwc, "c", in, 3, 2, 1)->output());
  Infer(nhwc);
  ExpectSoundPass("convert-layout-nhwc", nhwc);
  EXPECT_EQ(Transposes(nhwc), 0u);
}

TEST(ConvertLayout, CancelsTransposesAnExporterLeftAtTheInput) {
  // An NHWC graph input transposed to NCHW for the conv (TF -> ONNX style) needs no transpose.
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 4, 4, 3}, ir::Layout::kNHWC);
  ir::Tensor* t =
      g.AddNode(ir::OpKind::kTranspose, "to_nchw", {x}, {"t"}, A({{"perm", Ints{0, 3, 1, 2}}}))
          ->output();
  ir::Node* c = AddConv(g, "c", t, 3, 2, 1);
  g.AddOutput(g.AddNode(ir::OpKind::kGlobalAveragePool, "gap", {c->output()}, {"y"})->output());
  Infer(g);
  const PassContext ctx = ExpectSoundPass("convert-layout-nhwc", g);
  // The exporter's Transpose back from NHWC hands the conv its input directly: nothing to merge.
  EXPECT_EQ(ctx.Stat("convert-layout.transposes-merged"), 0);
  EXPECT_EQ(Transposes(g), 1u) << ir::PrintGraph(g);  // the output's 4-D value goes back to NCHW
  EXPECT_EQ(c->input(0), x);
}

}  // namespace
}  // namespace npu::compiler::passes::testing
