// Constant folding, identity elimination and dead-code elimination on small graphs: each rewrite
// fires where it should, keeps the interpreter's outputs, and leaves alone what it must.
#include <gtest/gtest.h>

#include "tests/passes/pass_test_util.h"

namespace npu::compiler::passes::testing {
namespace {

// x [2,3,2,2] -> Reshape(x, exporter shape chain) -> Relu -> y.
ir::Graph ShapeChainGraph() {
  ir::Graph g("chain");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3, 2, 2}, ir::Layout::kNCHW);
  ir::Tensor* r = AddShapeChainReshape(g, x, "r");
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "relu", {r}, {"y"})->output());
  return g;
}

TEST(FoldConstants, FoldsExporterShapeChains) {
  ir::Graph g = ShapeChainGraph();
  Infer(g);
  const PassContext ctx = ExpectSoundPass("fold-constants", g);
  EXPECT_EQ(ctx.Stat("fold-constants.folded"), 4);  // shape, gather, unsqueeze, concat
  EXPECT_EQ(g.nodes().size(), 2u);                  // reshape, relu
  const ir::Tensor* t = g.FindTensor("t");          // the folded constant keeps its name
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(t->is_constant());
  EXPECT_EQ(std::vector<int64_t>(t->data<int64_t>().begin(), t->data<int64_t>().end()),
            (Ints{2, -1}));
}

TEST(FoldConstants, LeavesComputedValuesAlone) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2}, ir::Layout::kNone);
  g.AddOutput(g.AddNode(ir::OpKind::kAdd, "add", {x, g.AddConstant<float>("c", {2}, {1, 2})}, {"y"})
                  ->output());
  Infer(g);
  const PassContext ctx = ExpectSoundPass("fold-constants", g);
  EXPECT_EQ(ctx.Stat("fold-constants.folded"), 0);
  EXPECT_EQ(g.nodes().size(), 1u);
}

TEST(EliminateIdentity, BypassesNoOpsAndKeepsOutputNames) {
  // x -> Identity -> Reshape(same shape) -> Relu -> Flatten(already flat) = y (graph output).
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3}, ir::Layout::kNone);
  ir::Tensor* a = g.AddNode(ir::OpKind::kIdentity, "id", {x}, {"a"})->output();
  ir::Tensor* b =
      g.AddNode(ir::OpKind::kReshape, "same", {a, g.AddConstant<int64_t>("s", {2}, {2, 3})}, {"b"})
          ->output();
  ir::Tensor* c = g.AddNode(ir::OpKind::kRelu, "relu", {b}, {"c"})->output();
  g.AddOutput(g.AddNode(ir::OpKind::kFlatten, "flat", {c}, {"y"})->output());
  Infer(g);
  const PassContext ctx = ExpectSoundPass("eliminate-identity", g);
  EXPECT_EQ(ctx.Stat("eliminate-identity.identity"), 1);
  EXPECT_EQ(ctx.Stat("eliminate-identity.reshape"), 1);
  EXPECT_EQ(ctx.Stat("eliminate-identity.flatten"), 1);
  ASSERT_EQ(g.nodes().size(), 1u);
  EXPECT_EQ(g.outputs()[0]->name(), "y");  // the relu's output took the graph output's name
  EXPECT_EQ(g.outputs()[0]->producer()->name(), "relu");
}

TEST(EliminateIdentity, KeepsShapeChangesAndInputPassThroughs) {
  // A Flatten that changes the shape stays; an Identity from graph input to graph output stays
  // (both names are part of the interface).
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3, 1}, ir::Layout::kNone);
  g.AddOutput(g.AddNode(ir::OpKind::kFlatten, "flat", {x}, {"y"})->output());
  g.AddOutput(g.AddNode(ir::OpKind::kIdentity, "id", {x}, {"z"})->output());
  Infer(g);
  const PassContext ctx = ExpectSoundPass("eliminate-identity", g);
  EXPECT_TRUE(ctx.stats.empty());
  EXPECT_EQ(g.nodes().size(), 2u);
}

TEST(EliminateIdentity, CollapsesViewChains) {
  // x -> Unsqueeze -> Squeeze (back to x's shape: vanishes) -> Flatten -> Reshape -> y.
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3, 4}, ir::Layout::kNone);
  ir::Tensor* u =
      g.AddNode(ir::OpKind::kUnsqueeze, "unsq", {x}, {"u"}, A({{"axes", Ints{0}}}))->output();
  ir::Tensor* s =
      g.AddNode(ir::OpKind::kSqueeze, "sq", {u}, {"s"}, A({{"axes", Ints{0}}}))->output();
  ir::Tensor* r = g.AddNode(ir::OpKind::kRelu, "relu", {s}, {"r"})->output();
  ir::Tensor* f = g.AddNode(ir::OpKind::kFlatten, "flat", {r}, {"f"})->output();
  g.AddOutput(g.AddNode(ir::OpKind::kReshape, "reshape",
                        {f, g.AddConstant<int64_t>("shape", {2}, {3, 8})}, {"y"})
                  ->output());
  Infer(g);
  const PassContext ctx = ExpectSoundPass("eliminate-identity", g);
  EXPECT_EQ(ctx.Stat("eliminate-identity.view-chain"), 2);
  ASSERT_EQ(g.nodes().size(), 2u) << ir::PrintGraph(g);
  EXPECT_EQ(g.nodes()[0]->kind(), ir::OpKind::kRelu);
  EXPECT_EQ(g.nodes()[0]->input(0), x);
  EXPECT_EQ(g.nodes()[1]->kind(), ir::OpKind::kReshape);
  EXPECT_EQ(g.nodes()[1]->input(0)->name(), "r");
}

TEST(EliminateDeadCode, RemovesDeadChainsAndConstants) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2}, ir::Layout::kNone);
  ir::Tensor* dead = g.AddNode(ir::OpKind::kRelu, "dead1", {x}, {"d1"})->output();
  g.AddNode(ir::OpKind::kAdd, "dead2", {dead, g.AddConstant<float>("c", {2}, {1, 2})}, {"d2"});
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "live", {x}, {"y"})->output());
  Infer(g);
  const PassContext ctx = ExpectSoundPass("eliminate-dead-code", g);
  EXPECT_EQ(ctx.Stat("eliminate-dead-code.nodes"), 2);
  EXPECT_EQ(g.nodes().size(), 1u);
  EXPECT_EQ(g.FindTensor("c"), nullptr);
  // Nothing left to remove: a second run does nothing.
  EXPECT_TRUE(ExpectSoundPass("eliminate-dead-code", g).stats.empty());
}

}  // namespace
}  // namespace npu::compiler::passes::testing
