// The graph IR's mutators keep producers and users consistent; the verifier catches what they
// cannot; the printer shows the graph.
#include "compiler/ir/graph.h"

#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"

namespace npu::compiler::ir {
namespace {

// x -> relu -> add(., c) -> y
Graph SmallGraph() {
  Graph g("small");
  Tensor* x = g.AddInput("x", DType::kFloat32, {1, 2, 2, 1}, Layout::kNHWC);
  Tensor* c = g.AddConstant<float>("c", {1}, {0.5f});
  Node* relu = g.AddNode(OpKind::kRelu, "relu1", {x}, {"r"});
  Node* add = g.AddNode(OpKind::kAdd, "add1", {relu->output(), c}, {"y"});
  for (Node* n : {relu, add}) {
    n->output()->set_dtype(DType::kFloat32);
    n->output()->set_shape({1, 2, 2, 1});
  }
  g.AddOutput(add->output());
  return g;
}

TEST(Graph, BuildsWithConsistentLinks) {
  Graph g = SmallGraph();
  ASSERT_TRUE(Verify(g).ok()) << Verify(g).message();
  Tensor* r = g.FindTensor("r");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->producer()->name(), "relu1");
  ASSERT_EQ(r->users().size(), 1u);
  EXPECT_EQ(r->users()[0]->name(), "add1");
  EXPECT_EQ(g.UniqueName("r"), "r_1");
  EXPECT_EQ(g.UniqueName("fresh"), "fresh");
}

TEST(Graph, BypassAndEraseANode) {
  Graph g = SmallGraph();
  Node* relu = g.NodesOfKind(OpKind::kRelu)[0];
  g.ReplaceAllUsesWith(relu->output(), g.inputs()[0]);
  g.EraseNode(relu);
  EXPECT_EQ(g.RemoveUnusedTensors(), 1u);  // %r
  ASSERT_TRUE(Verify(g).ok()) << Verify(g).message();
  EXPECT_EQ(g.nodes().size(), 1u);
  EXPECT_EQ(g.FindTensor("r"), nullptr);
  EXPECT_EQ(g.inputs()[0]->users().size(), 1u);
}

TEST(Graph, CloneIsIndependent) {
  Graph g = SmallGraph();
  Graph c = g.Clone();
  c.FindTensor("r")->set_shape({7});
  EXPECT_EQ(g.FindTensor("r")->shape(), (Shape{1, 2, 2, 1}));
  EXPECT_EQ(PrintGraph(g), PrintGraph(SmallGraph()));
  ASSERT_TRUE(Verify(c).ok());
  EXPECT_EQ(c.FindTensor("c")->data<float>()[0], 0.5f);
}

TEST(Graph, SortRestoresOrderAndFindsCycles) {
  Graph g("g");
  Tensor* x = g.AddInput("x", DType::kFloat32, {1}, Layout::kNone);
  Node* b = g.AddNode(OpKind::kRelu, "b", {nullptr}, {"tb"});
  Node* a = g.AddNode(OpKind::kRelu, "a", {x}, {"ta"});
  g.SetNodeInput(b, 0, a->output());  // b now reads a, which comes later
  g.AddOutput(b->output());
  EXPECT_FALSE(Verify(g, {.require_types = false}).ok());
  ASSERT_TRUE(g.SortTopologically().ok());
  EXPECT_TRUE(Verify(g, {.require_types = false}).ok());
  g.SetNodeInput(a, 0, b->output());  // a <-> b
  const Status s = g.SortTopologically();
  EXPECT_NE(s.message().find("cycle"), std::string::npos) << s.message();
}

TEST(Graph, RenameTensorAndSetOutputKeepTheInterface) {
  Graph g = SmallGraph();
  Tensor* r = g.FindTensor("r");
  g.RenameTensor(g.FindTensor("y"), "y_old");
  g.RenameTensor(r, "y");  // a pass replacing the output keeps its name
  g.SetOutput(0, r);
  EXPECT_EQ(g.FindTensor("y"), r);
  EXPECT_EQ(g.FindTensor("r"), nullptr);
  EXPECT_EQ(g.outputs()[0], r);
  EXPECT_EQ(g.FindTensor("y_old")->users().size(), 0u);
  ASSERT_TRUE(Verify(g).ok()) << Verify(g).message();
}

TEST(Verifier, ConstantSizeMustMatchShape) {
  Graph g = SmallGraph();
  g.FindTensor("c")->set_shape({2});
  const Status s = Verify(g);
  EXPECT_NE(s.message().find("%c f32[2] holds 4 bytes, not 8"), std::string::npos) << s.message();
}

TEST(Printer, ShowsTypesAttributesAndNames) {
  Graph g = SmallGraph();
  g.NodesOfKind(OpKind::kAdd)[0]->attrs().Set("axis", int64_t{1});
  const std::string text = PrintGraph(g);
  EXPECT_NE(text.find("input  %x: f32[1,2,2,1] NHWC"), std::string::npos) << text;
  EXPECT_NE(text.find("%y: f32[1,2,2,1] = add(%r, %c) {axis=1}  # add1"), std::string::npos)
      << text;
  EXPECT_NE(text.find("output %y"), std::string::npos);
}

}  // namespace
}  // namespace npu::compiler::ir
