// BatchNorm folding: fires on a single-use conv (values unchanged, BN gone, weights rescaled);
// does not fire when the conv's output has a second reader or the BN follows something else.
#include <gtest/gtest.h>

#include "tests/passes/pass_test_util.h"

namespace npu::compiler::passes::testing {
namespace {

TEST(FoldBatchNorm, FoldsIntoSingleUseConv) {
  for (bool bias : {false, true}) {
    ir::Graph g("g");
    ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 6, 6}, ir::Layout::kNCHW);
    ir::Node* conv = AddConv(g, "conv", x, 3, 4, 11, bias);
    g.AddOutput(AddBatchNorm(g, "bn", conv->output(), 4, 20)->output());
    Infer(g);
    const PassContext ctx = ExpectSoundPass("fold-batchnorm", g);
    EXPECT_EQ(ctx.Stat("fold-batchnorm.folded"), 1);
    EXPECT_EQ(CountKind(g, ir::OpKind::kBatchNormalization), 0u);
    EXPECT_EQ(g.outputs()[0]->name(), "bn");  // the graph output keeps its name
    EXPECT_EQ(g.outputs()[0]->producer(), conv);
    EXPECT_NE(conv->input(1)->name(), "conv.w");   // new, rescaled weights
    EXPECT_EQ(g.FindTensor("bn.gamma"), nullptr);  // dead parameters are gone
  }
}

TEST(FoldBatchNorm, KeepsConvWithSecondUser) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 6, 6}, ir::Layout::kNCHW);
  ir::Node* conv = AddConv(g, "conv", x, 3, 4, 11);
  g.AddOutput(AddBatchNorm(g, "bn", conv->output(), 4, 20)->output());
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "relu", {conv->output()}, {"r"})->output());
  Infer(g);
  const PassContext ctx = ExpectSoundPass("fold-batchnorm", g);
  EXPECT_EQ(ctx.Stat("fold-batchnorm.folded"), 0);
  EXPECT_EQ(CountKind(g, ir::OpKind::kBatchNormalization), 1u);
  EXPECT_EQ(conv->input(1)->name(), "conv.w");
}

TEST(FoldBatchNorm, KeepsBatchNormAfterOtherOps) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 6, 6}, ir::Layout::kNCHW);
  ir::Tensor* r = g.AddNode(ir::OpKind::kRelu, "relu", {x}, {"r"})->output();
  g.AddOutput(AddBatchNorm(g, "bn", r, 3, 20)->output());
  Infer(g);
  EXPECT_EQ(ExpectSoundPass("fold-batchnorm", g).Stat("fold-batchnorm.folded"), 0);
  EXPECT_EQ(CountKind(g, ir::OpKind::kBatchNormalization), 1u);
}

}  // namespace
}  // namespace npu::compiler::passes::testing
