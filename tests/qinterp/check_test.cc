// The quantised-IR checker: a valid graph passes; each broken rule is reported naming the node,
// tensor or attribute; the interpreter refuses what the checker refuses and bad inputs, without
// crashing.
#include "compiler/qinterp/check.h"

#include <gtest/gtest.h>

#include <functional>

#include "compiler/qinterp/qinterp.h"
#include "tests/qinterp/qgraph_builder.h"

namespace npu::compiler::qinterp {
namespace {

using ir::OpKind;
using qinterp_test::QGraphBuilder;
using qinterp_test::SetClamp;

// x [1,4,4,2] -> conv 3x3 (pads 1) -> [1,4,4,3] -> max pool 2x2/2 -> add with itself -> flatten.
ir::Graph ValidGraph() {
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 4, 4, 2}, 0.1f, 3);
  ir::Tensor* c =
      b.Conv("conv", x, b.Weights("w", {3, 3, 3, 2}, std::vector<int8_t>(54, 1)),
             b.Bias("b", {1, 2, 3}), {1, 4, 4, 3}, 0.2f, -5, 1, {1, 1, 1, 1}, 1 << 30, 31);
  ir::Attributes pool;
  pool.Set("kernel_shape", std::vector<int64_t>{2, 2});
  pool.Set("strides", std::vector<int64_t>{2, 2});
  pool.Set("pads", std::vector<int64_t>{0, 0, 0, 0});
  SetClamp(pool);
  ir::Tensor* p = b.Node(OpKind::kMaxPool, "pool", {c}, {1, 2, 2, 3}, 0.2f, -5, pool);
  ir::Attributes add;
  add.Set("a_multiplier", int64_t{16384});
  add.Set("b_multiplier", int64_t{16384});
  add.Set("shift", int64_t{15});
  SetClamp(add);
  ir::Tensor* s = b.Node(OpKind::kAdd, "add", {p, p}, {1, 2, 2, 3}, 0.4f, 0, add);
  ir::Attributes flat;
  flat.Set("axis", int64_t{1});
  return b.Finish({b.Node(OpKind::kFlatten, "flat", {s}, {1, 12}, 0.4f, 0, flat)});
}

ir::Node* NodeNamed(const ir::Graph& g, const std::string& name) {
  for (ir::Node* n : g.nodes()) {
    if (n->name() == name) return n;
  }
  return nullptr;
}

// Applies `mutate` to a valid graph and expects the checker to fail mentioning `needle`.
void ExpectRejected(const std::function<void(ir::Graph&)>& mutate, const std::string& needle,
                    ErrorKind kind = ErrorKind::kInvalidArgument) {
  ir::Graph g = ValidGraph();
  mutate(g);
  const Status s = CheckQuantizedGraph(g);
  ASSERT_FALSE(s.ok()) << "expected a failure mentioning " << needle;
  EXPECT_EQ(s.kind(), kind) << s.message();
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
  // The interpreter refuses it too, with the same message.
  StatusOr<std::vector<std::vector<int8_t>>> run =
      InterpretQuantized(g, {std::vector<int8_t>(32, 0)});
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(), s.message());
}

TEST(QuantizedIrCheck, ValidGraphPassesAndRuns) {
  const ir::Graph g = ValidGraph();
  EXPECT_TRUE(CheckQuantizedGraph(g).ok()) << CheckQuantizedGraph(g).message();
  StatusOr<std::vector<std::vector<int8_t>>> out =
      InterpretQuantized(g, {std::vector<int8_t>(32, 3)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].size(), 12u);
}

TEST(QuantizedIrCheck, RejectsBadRequantisationAttributes) {
  ExpectRejected(
      [](ir::Graph& g) {
        NodeNamed(g, "conv")->attrs().Set("shift", std::vector<int64_t>{31, 0, 31});
      },
      "shift[1]=0 is outside [1, 62]");
  ExpectRejected([](ir::Graph& g) { NodeNamed(g, "conv")->attrs().Erase("multiplier"); },
                 "attribute 'multiplier' is missing");
  ExpectRejected(
      [](ir::Graph& g) {
        NodeNamed(g, "conv")->attrs().Set("multiplier", std::vector<int64_t>{1});
      },
      "'multiplier' has 1 values, expected 3");
  ExpectRejected([](ir::Graph& g) { SetClamp(NodeNamed(g, "conv")->attrs(), 5, 4); },
                 "clamp_min 5 > clamp_max 4");
  ExpectRejected(
      [](ir::Graph& g) { NodeNamed(g, "add")->attrs().Set("a_multiplier", int64_t{40000}); },
      "a_multiplier=40000 is outside [-32768, 32767]");
  ExpectRejected(
      [](ir::Graph& g) { NodeNamed(g, "conv")->attrs().Set("activation", std::string("gelu")); },
      "activation='gelu'");
}

TEST(QuantizedIrCheck, ChecksWeightBits) {
  ir::Graph g = ValidGraph();
  NodeNamed(g, "conv")->attrs().Set("weight_bits", int64_t{4});  // its weights are all 1
  EXPECT_TRUE(CheckQuantizedGraph(g).ok()) << CheckQuantizedGraph(g).message();
  ExpectRejected([](ir::Graph& g) { NodeNamed(g, "conv")->attrs().Set("weight_bits", int64_t{5}); },
                 "weight_bits = 5: must be 8 or 4");
  ExpectRejected(
      [](ir::Graph& g) {
        ir::Node* conv = NodeNamed(g, "conv");
        conv->attrs().Set("weight_bits", int64_t{4});
        conv->input(1)->set_data(std::vector<int8_t>(54, 9));
      },
      "weight_bits = 4 but weight 0 of %w is 9, outside [-8, 7]");
}

TEST(QuantizedIrCheck, RejectsBadTensors) {
  ExpectRejected([](ir::Graph& g) { g.FindTensor("conv")->quant().zero_point = {200}; },
                 "zero point 200");
  ExpectRejected(
      [](ir::Graph& g) {
        g.FindTensor("x")->quant() = {{0.1f, 0.2f}, {3, 3}, 3};
      },
      "needs one scale and one zero point (per tensor), has 2 and 2 (axis 3)");
  ExpectRejected(
      [](ir::Graph& g) {
        g.FindTensor("w")->quant().zero_point = {0, 1, 0};
      },
      "channel 1: scale 0.01 zero point 1");
  ExpectRejected(
      [](ir::Graph& g) {
        g.FindTensor("b")->set_data(std::vector<int32_t>{1, 2}), g.FindTensor("b")->set_shape({2});
      },
      "bias %b must be a constant i32[3]");
  ExpectRejected([](ir::Graph& g) { g.FindTensor("x")->set_layout(ir::Layout::kNCHW); },
                 "must be a 4-D NHWC activation");
  ExpectRejected(
      [](ir::Graph& g) {
        g.FindTensor("conv")->set_shape({1, 4, 4, 4});
      },
      "output %conv has shape [1,4,4,4], the op gives [1,4,4,3]");
  ExpectRejected([](ir::Graph& g) { g.FindTensor("pool")->quant().scale = {0.3f}; },
                 "must keep the quantisation of %conv");
  ExpectRejected([](ir::Graph& g) { g.FindTensor("flat")->quant().zero_point = {1}; },
                 "must keep the quantisation of %add");
}

TEST(QuantizedIrCheck, RejectsUnsupportedForms) {
  ExpectRejected([](ir::Graph& g) { NodeNamed(g, "conv")->attrs().Set("group", int64_t{2}); },
                 "group 2 does not divide 2 input and 3 output channels into weights [3,3,3,2]");
  ExpectRejected([](ir::Graph& g) { NodeNamed(g, "flat")->set_kind(OpKind::kConvTranspose); },
                 "op conv_transpose is not part of the quantised IR", ErrorKind::kUnimplemented);
  ExpectRejected([](ir::Graph& g) { NodeNamed(g, "flat")->set_kind(OpKind::kSoftmax); },
                 "attribute 'exp_table' is missing");
  ExpectRejected(
      [](ir::Graph& g) {
        NodeNamed(g, "pool")->attrs().Set("pads", std::vector<int64_t>{2, 0, 0, 0});
      },
      "must be smaller than the kernel");
}

// A global pool's strip sums and their mean (row_strips.h) take and give i32 sums, and only
// those of a pool sum.
TEST(QuantizedIrCheck, RejectsPoolSumsAndMeansOfOtherTensors) {
  ExpectRejected([](ir::Graph& g) { NodeNamed(g, "pool")->set_kind(OpKind::kPoolSum); },
                 "output %pool must be i32 [1,1,1,3]");
  ExpectRejected([](ir::Graph& g) { NodeNamed(g, "pool")->set_kind(OpKind::kPoolMean); },
                 "input %conv must be the i32 [1,1,1,3] sums of a pool_sum, is i8 [1,4,4,3]");
}

TEST(QuantizedIrCheck, RejectsReductionsThatCouldOverflowInt32) {
  QGraphBuilder b;
  ir::Tensor* x = b.Input("x", {1, 70000}, 0.1f, 0);
  ir::Attributes a;
  a.Set("transB", int64_t{1});
  a.Set("multiplier", std::vector<int64_t>{1 << 30});
  a.Set("shift", std::vector<int64_t>{31});
  SetClamp(a);
  ir::Tensor* w = b.Weights("w", {1, 70000}, std::vector<int8_t>(70000, 1));
  const ir::Graph g =
      b.Finish({b.Node(OpKind::kGemm, "fc", {x, w, b.Bias("b", {0})}, {1, 1}, 0.1f, 0, a)});
  const Status s = CheckQuantizedGraph(g);
  EXPECT_NE(s.message().find("K = 70000 is more than 65535"), std::string::npos) << s.message();
}

TEST(QuantizedIrCheck, InterpreterRefusesBadInputs) {
  const ir::Graph g = ValidGraph();
  StatusOr<std::vector<std::vector<int8_t>>> none = InterpretQuantized(g, {});
  EXPECT_EQ(none.status().message(), "graph 'qtest' has 1 inputs, 0 given");
  StatusOr<std::vector<std::vector<int8_t>>> small = InterpretQuantized(g, {{1, 2, 3}});
  EXPECT_EQ(small.status().message(), "input 0 'x' has 3 bytes, the graph expects 32 (i8 [1,4,4,2])");
}

}  // namespace
}  // namespace npu::compiler::qinterp
