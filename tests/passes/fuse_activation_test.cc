// Conv/Add activation fusion: Conv+Relu, Conv+Clip(0,6), Conv+bias Add+Relu, Add+Relu fuse;
// a second reader, or a Clip that is not ReLU/ReLU6, stops the fusion.
#include <gtest/gtest.h>

#include "tests/passes/pass_test_util.h"

namespace npu::compiler::passes::testing {
namespace {

ir::Tensor* Clip(ir::Graph& g, const std::string& name, ir::Tensor* x, float lo, float hi) {
  return g.AddNode(ir::OpKind::kClip, name, {x}, {name}, A({{"min", lo}, {"max", hi}}))->output();
}

TEST(FuseConvActivation, FusesReluRelu6AndBiasAdd) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 6, 6}, ir::Layout::kNCHW);
  ir::Node* c1 = AddConv(g, "c1", x, 3, 4, 1, /*bias=*/true);
  ir::Tensor* r1 = g.AddNode(ir::OpKind::kRelu, "r1", {c1->output()}, {"r1"})->output();
  ir::Node* c2 = AddConv(g, "c2", r1, 4, 4, 2);
  ir::Tensor* r2 = Clip(g, "r2", c2->output(), 0, 6);
  ir::Node* c3 = AddConv(g, "c3", r2, 4, 5, 3);
  ir::Tensor* b = g.AddNode(ir::OpKind::kAdd, "bias_add",
                            {c3->output(), RandomConst(g, "extra_bias", {5, 1, 1}, 9)}, {"b"})
                      ->output();
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "r3", {b}, {"y"})->output());
  Infer(g);
  const PassContext ctx = ExpectSoundPass("fuse-conv-activation", g);
  ASSERT_EQ(g.nodes().size(), 3u) << ir::PrintGraph(g);
  EXPECT_EQ(CountKind(g, ir::OpKind::kFusedConv), 3u);
  EXPECT_EQ(c1->attrs().GetString("activation", ""), "relu");
  EXPECT_EQ(c2->attrs().GetString("activation", ""), "relu6");
  EXPECT_EQ(c3->attrs().GetString("activation", ""), "relu");
  EXPECT_EQ(ctx.Stat("fuse-conv-activation.bias"), 1);
  EXPECT_EQ(g.outputs()[0]->name(), "y");
}

TEST(FuseConvActivation, StopsAtASecondReaderAndOtherClips) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 6, 6}, ir::Layout::kNCHW);
  ir::Node* c1 = AddConv(g, "c1", x, 3, 4, 1);
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "r1", {c1->output()}, {"r1"})->output());
  g.AddOutput(c1->output());  // the pre-activation value is needed too
  ir::Node* c2 = AddConv(g, "c2", x, 3, 4, 2);
  g.AddOutput(Clip(g, "clip5", c2->output(), 0, 5));
  Infer(g);
  ExpectSoundPass("fuse-conv-activation", g);
  EXPECT_EQ(c1->attrs().GetString("activation", ""), "none");
  EXPECT_EQ(c2->attrs().GetString("activation", ""), "none");
  EXPECT_EQ(CountKind(g, ir::OpKind::kRelu), 1u);
  EXPECT_EQ(CountKind(g, ir::OpKind::kClip), 1u);
}

TEST(FuseAddActivation, FusesAddReluButNotAPlainAdd) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 4, 3, 3}, ir::Layout::kNCHW);
  ir::Tensor* y = g.AddInput("y", ir::DType::kFloat32, {1, 4, 3, 3}, ir::Layout::kNCHW);
  ir::Node* add = g.AddNode(ir::OpKind::kAdd, "add", {x, y}, {"s"});
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "relu", {add->output()}, {"z"})->output());
  g.AddOutput(g.AddNode(ir::OpKind::kAdd, "plain", {x, y}, {"p"})->output());
  Infer(g);
  const PassContext ctx = ExpectSoundPass("fuse-add-activation", g);
  EXPECT_EQ(ctx.Stat("fuse-add-activation.relu"), 1);
  EXPECT_EQ(add->kind(), ir::OpKind::kFusedAdd);
  EXPECT_EQ(CountKind(g, ir::OpKind::kAdd), 1u);
  EXPECT_EQ(g.outputs()[0]->name(), "z");
}

}  // namespace
}  // namespace npu::compiler::passes::testing
