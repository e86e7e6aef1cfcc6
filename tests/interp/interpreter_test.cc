// The interpreter loop: input checks, errors that name the node, observation of every value,
// graphs whose outputs are inputs or constants.
#include "compiler/interp/interpreter.h"

#include <gtest/gtest.h>

#include "tests/interp/op_runner.h"

namespace npu::compiler::interp::testing {
namespace {

// x -> relu -> add(., c) -> y, and c itself as a second output.
ir::Graph Small() {
  ir::Graph g("small");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2}, ir::Layout::kNone);
  ir::Tensor* c = g.AddConstant<float>("c", {2}, {1, 2});
  ir::Tensor* r = g.AddNode(ir::OpKind::kRelu, "relu", {x}, {"r"})->output();
  g.AddOutput(g.AddNode(ir::OpKind::kAdd, "add", {r, c}, {"y"})->output());
  g.AddOutput(c);
  return g;
}

TEST(Interpreter, RunsAndObservesEveryValue) {
  std::vector<std::string> seen;
  InterpretOptions options;
  options.observe = [&](const ir::Tensor& t, const HostTensor&) { seen.push_back(t.name()); };
  auto r = Interpret(Small(), {F32({2}, {-1, 1})}, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ(std::vector<float>((*r)[0].values<float>().begin(), (*r)[0].values<float>().end()),
            (std::vector<float>{1, 3}));
  EXPECT_EQ((*r)[1].values<float>()[1], 2.0f);  // a constant output
  EXPECT_EQ(seen, (std::vector<std::string>{"r", "y"}));
}

TEST(Interpreter, RejectsWrongInputs) {
  auto count = Interpret(Small(), {});
  ASSERT_FALSE(count.ok());
  EXPECT_NE(count.status().message().find("has 1 inputs, 0 given"), std::string::npos);
  auto shape = Interpret(Small(), {F32({3}, {1, 2, 3})});
  ASSERT_FALSE(shape.ok());
  EXPECT_NE(shape.status().message().find("input %x is f32[2]"), std::string::npos)
      << shape.status().message();
}

TEST(Interpreter, ReportsTheFailingNode) {
  ir::Graph g("bad");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3}, ir::Layout::kNone);
  ir::Tensor* y = g.AddInput("y", ir::DType::kFloat32, {2, 4}, ir::Layout::kNone);
  g.AddOutput(g.AddNode(ir::OpKind::kAdd, "sum_xy", {x, y}, {"z"})->output());
  auto r = Interpret(g, {F32({2, 3}, std::vector<float>(6)), F32({2, 4}, std::vector<float>(8))});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("node 'sum_xy' (add)"), std::string::npos)
      << r.status().message();
}

TEST(Interpreter, RejectsMalformedGraphs) {
  ir::Graph g("cycle");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1}, ir::Layout::kNone);
  ir::Node* b = g.AddNode(ir::OpKind::kRelu, "b", {nullptr}, {"tb"});
  ir::Node* a = g.AddNode(ir::OpKind::kRelu, "a", {x}, {"ta"});
  g.SetNodeInput(b, 0, a->output());  // b reads a, which comes later
  g.AddOutput(b->output());
  auto r = Interpret(g, {F32({1}, {1})});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::kInvalidArgument);
}

}  // namespace
}  // namespace npu::compiler::interp::testing

namespace npu::compiler::interp::testing {
namespace {

TEST(Interpreter, RefusesShapesItCannotAllocate) {
  auto huge = RunOp(ir::OpKind::kPad, {},
                    {In({1, 2}, {1, 2}), Const(I64({4}, {0, 0, 0, int64_t{1} << 40}))});
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().kind(), ErrorKind::kResourceExhausted) << huge.status().message();
  ir::Graph g("negative");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {-1, 2}, ir::Layout::kNone);
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "relu", {x}, {"y"})->output());
  HostTensor bad{ir::DType::kFloat32, {-1, 2}, ir::Layout::kNone, {}};
  auto r = Interpret(g, {bad});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("negative dimension"), std::string::npos);
}

}  // namespace
}  // namespace npu::compiler::interp::testing
