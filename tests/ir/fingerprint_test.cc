// A graph's fingerprint names the model: equal graphs agree, and a change of a constant's value,
// an op, an attribute or a shape changes it.
#include "compiler/ir/fingerprint.h"

#include <gtest/gtest.h>

namespace npu::compiler::ir {
namespace {

Graph Model(float constant = 0.5f, OpKind op = OpKind::kRelu, int64_t axis = 1, int64_t width = 2) {
  Graph g("m");
  Tensor* x = g.AddInput("x", DType::kFloat32, {1, 2, width, 1}, Layout::kNHWC);
  Tensor* c = g.AddConstant<float>("c", {1}, {constant});
  Node* unary = g.AddNode(op, "u", {x}, {"r"});
  Node* add = g.AddNode(OpKind::kAdd, "add", {unary->output(), c}, {"y"});
  add->attrs().Set("axis", axis);
  g.AddOutput(add->output());
  return g;
}

TEST(GraphFingerprint, EqualGraphsAgreeAndClonesToo) {
  const Graph g = Model();
  EXPECT_EQ(GraphFingerprint(g), GraphFingerprint(Model()));
  EXPECT_EQ(GraphFingerprint(g), GraphFingerprint(g.Clone()));
}

TEST(GraphFingerprint, AnyChangeOfTheModelChangesIt) {
  const uint64_t base = GraphFingerprint(Model());
  EXPECT_NE(base, GraphFingerprint(Model(0.25f)));                      // a constant's value
  EXPECT_NE(base, GraphFingerprint(Model(0.5f, OpKind::kSigmoid)));     // an op
  EXPECT_NE(base, GraphFingerprint(Model(0.5f, OpKind::kRelu, 2)));     // an attribute
  EXPECT_NE(base, GraphFingerprint(Model(0.5f, OpKind::kRelu, 1, 3)));  // a shape
}

}  // namespace
}  // namespace npu::compiler::ir
