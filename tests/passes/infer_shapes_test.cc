// Shape inference: rules in both layouts, int64 shape expressions computed before folding,
// errors that name the node, and the verifier that catches stale types.
#include <gtest/gtest.h>

#include "tests/passes/pass_test_util.h"

namespace npu::compiler::passes::testing {
namespace {

TEST(InferShapes, AddShapeMismatchNamesTheNode) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3}, ir::Layout::kNone);
  ir::Tensor* y = g.AddInput("y", ir::DType::kFloat32, {1, 4}, ir::Layout::kNone);
  g.AddOutput(g.AddNode(ir::OpKind::kAdd, "bad_add", {x, y}, {"z"})->output());
  PassContext ctx;
  const Status s = InferShapes(g, ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("node 'bad_add' (add)"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("[1,3] and [1,4] do not broadcast"), std::string::npos);
}

TEST(InferShapes, BadReshapeNamesTheNode) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3}, ir::Layout::kNone);
  ir::Tensor* shape = g.AddConstant<int64_t>("shape", {2}, {4, -1});
  g.AddOutput(g.AddNode(ir::OpKind::kReshape, "bad_reshape", {x, shape}, {"y"})->output());
  PassContext ctx;
  const Status s = InferShapes(g, ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("node 'bad_reshape' (reshape)"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("cannot reshape [2,3]"), std::string::npos) << s.message();
}

TEST(InferShapes, ComputesShapeChainsBeforeFolding) {
  // y = Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])): static [2, 12].
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3, 2, 2}, ir::Layout::kNCHW);
  g.AddOutput(AddShapeChainReshape(g, x, "y"));
  Infer(g);
  EXPECT_EQ(g.FindTensor("y")->shape(), (ir::Shape{2, 12}));
  EXPECT_EQ(g.FindTensor("t")->dtype(), ir::DType::kInt64);
  EXPECT_TRUE(VerifyGraph(g).ok()) << VerifyGraph(g).message();
}

TEST(InferShapes, ConvAndPoolFollowTheLayout) {
  for (ir::Layout layout : {ir::Layout::kNCHW, ir::Layout::kNHWC}) {
    const bool nhwc = layout == ir::Layout::kNHWC;
    ir::Graph g("g");
    ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32,
                               nhwc ? ir::Shape{1, 8, 8, 3} : ir::Shape{1, 3, 8, 8}, layout);
    ir::Node* conv = g.AddNode(ir::OpKind::kConv, "conv", {x, RandomConst(g, "w", {4, 3, 3, 3}, 1)},
                               {"c"}, A({{"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}));
    g.AddOutput(g.AddNode(ir::OpKind::kMaxPool, "pool", {conv->output()}, {"p"},
                          A({{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}}}))
                    ->output());
    Infer(g);
    EXPECT_EQ(g.FindTensor("c")->shape(), nhwc ? (ir::Shape{1, 4, 4, 4}) : (ir::Shape{1, 4, 4, 4}));
    EXPECT_EQ(g.FindTensor("p")->shape(), nhwc ? (ir::Shape{1, 2, 2, 4}) : (ir::Shape{1, 4, 2, 2}));
    EXPECT_EQ(g.FindTensor("p")->layout(), layout);
  }
}

TEST(VerifyShapes, CatchesAStaleShape) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3}, ir::Layout::kNone);
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "relu", {x}, {"y"})->output());
  Infer(g);
  EXPECT_TRUE(VerifyShapes(g).ok());
  g.FindTensor("y")->set_shape({3});
  const Status s = VerifyShapes(g);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("node 'relu' (relu): %y is f32[3]"), std::string::npos) << s.message();
}

TEST(InferShapes, ReshapeOfAComputedShapeIsAnError) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3}, ir::Layout::kNone);
  ir::Tensor* s = g.AddInput("s", ir::DType::kInt64, {2}, ir::Layout::kNone);
  g.AddOutput(g.AddNode(ir::OpKind::kReshape, "dyn", {x, s}, {"y"})->output());
  PassContext ctx;
  const Status s2 = InferShapes(g, ctx);
  ASSERT_FALSE(s2.ok());
  EXPECT_NE(s2.message().find("must be a constant"), std::string::npos) << s2.message();
}

}  // namespace
}  // namespace npu::compiler::passes::testing
