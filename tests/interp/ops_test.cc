// The other kernels against hand-computed values: gemm/matmul, softmax, broadcasting, batch norm
// in both layouts, shape ops (the int64 chains older exporters emit), transpose, pad, quantise.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/common/ir_test_graphs.h"
#include "tests/interp/op_runner.h"

namespace npu::compiler::interp::testing {
namespace {

TEST(Gemm, TransposesAlphaBetaAndBroadcastBias) {
  // A = [[1,2],[3,4]], B = [[5,6],[7,8]], C = [1, -1] per column.
  const Operand a = In({2, 2}, {1, 2, 3, 4}), b = In({2, 2}, {5, 6, 7, 8}), c = In({2}, {1, -1});
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kGemm, {}, {a, b, c})),
            (std::vector<float>{20, 21, 44, 49}));  // A*B + C
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kGemm, A({{"transA", int64_t{1}}}), {a, b, c})),
            (std::vector<float>{27, 29, 39, 43}));  // A'*B + C
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kGemm, A({{"transB", int64_t{1}}}), {a, b, c})),
            (std::vector<float>{18, 22, 40, 52}));  // A*B' + C
  EXPECT_EQ(
      Floats(RunOp(
          ir::OpKind::kGemm,
          A({{"transA", int64_t{1}}, {"transB", int64_t{1}}, {"alpha", 2.0f}, {"beta", 0.5f}}),
          {a, b, c})),
      (std::vector<float>{46.5f, 61.5f, 68.5f, 91.5f}));  // 2*A'*B' + C/2
}

TEST(Gemm, RejectsMismatchedK) {
  auto r = RunOp(ir::OpKind::kGemm, {},
                 {In({2, 3}, std::vector<float>(6)), In({2, 2}, std::vector<float>(4))});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("disagree on K"), std::string::npos);
}

TEST(MatMul, BroadcastsBatchAndPromotesVectors) {
  // [2,1,2] x [2,1] -> [2,1,1]; [2] x [2,2] -> [2].
  EXPECT_EQ(
      Floats(RunOp(ir::OpKind::kMatMul, {}, {In({2, 1, 2}, {1, 2, 3, 4}), In({2, 1}, {1, 10})})),
      (std::vector<float>{21, 43}));
  auto r = RunOp(ir::OpKind::kMatMul, {}, {In({2}, {1, 2}), In({2, 2}, {1, 2, 3, 4})});
  EXPECT_EQ(Floats(r), (std::vector<float>{7, 10}));
  EXPECT_EQ((*r)[0].shape, (ir::Shape{2}));
}

TEST(Softmax, AlongAnAxis) {
  const float e = std::exp(1.0f);
  auto y =
      Floats(RunOp(ir::OpKind::kSoftmax, A({{"axis", int64_t{0}}}), {In({2, 2}, {0, 1, 1, 1})}));
  ASSERT_EQ(y.size(), 4u);
  EXPECT_NEAR(y[0], 1 / (1 + e), 1e-6);  // column 0: softmax(0, 1)
  EXPECT_NEAR(y[2], e / (1 + e), 1e-6);
  EXPECT_NEAR(y[1], 0.5f, 1e-6);  // column 1: softmax(1, 1)
  y = Floats(RunOp(ir::OpKind::kSoftmax, {}, {In({1, 3}, {1000, 1000, 1000})}));  // stable
  for (float v : y) EXPECT_NEAR(v, 1 / 3.0f, 1e-6);
}

TEST(Elementwise, BroadcastingAndIntegers) {
  EXPECT_EQ(
      Floats(RunOp(ir::OpKind::kAdd, {}, {In({2, 3}, {1, 2, 3, 4, 5, 6}), In({3}, {10, 20, 30})})),
      (std::vector<float>{11, 22, 33, 14, 25, 36}));
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kMul, {}, {In({2, 1}, {1, 2}), In({1, 3}, {1, 2, 3})})),
            (std::vector<float>{1, 2, 3, 2, 4, 6}));
  auto r = RunOp(ir::OpKind::kDiv, {}, {In(I64({2}, {7, -7})), In(I64({}, {2}))});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].values<int64_t>()[0], 3);
  EXPECT_EQ((*r)[0].values<int64_t>()[1], -3);  // truncates, like C
  auto bad = RunOp(ir::OpKind::kAdd, {}, {In({2, 3}, std::vector<float>(6)), In({2}, {1, 2})});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("do not broadcast"), std::string::npos);
}

TEST(Elementwise, ReluClipAndFusedAdd) {
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kRelu, {}, {In({3}, {-1, 0, 2})})),
            (std::vector<float>{0, 0, 2}));
  EXPECT_EQ(
      Floats(RunOp(ir::OpKind::kClip, A({{"min", 0.0f}, {"max", 6.0f}}), {In({3}, {-1, 3, 7})})),
      (std::vector<float>{0, 3, 6}));
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kClip, {},
                         {In({2}, {-1, 7}), Const(F32({}, {0})), Const(F32({}, {5}))})),
            (std::vector<float>{0, 5}));  // opset-11 bounds as inputs
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kFusedAdd, A({{"activation", std::string("relu6")}}),
                         {In({3}, {-5, 1, 5}), In({3}, {1, 1, 5})})),
            (std::vector<float>{0, 2, 6}));
}

TEST(BatchNormalization, ChannelAxisFollowsLayout) {
  // y = (x - mean) / sqrt(var + eps) * scale + B with channel 0: identity, channel 1: (x - 1) * 2
  // + 3.
  const std::vector<Operand> params = {In({2}, {1, 2}), In({2}, {0, 3}), In({2}, {0, 1}),
                                       In({2}, {1, 1})};
  const ir::Attributes eps = A({{"epsilon", 0.0f}});
  std::vector<Operand> nchw = {In({1, 2, 1, 2}, {1, 2, 5, 7}, ir::Layout::kNCHW)};
  nchw.insert(nchw.end(), params.begin(), params.end());
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kBatchNormalization, eps, nchw)),
            (std::vector<float>{1, 2, 11, 15}));
  std::vector<Operand> nhwc = {In({1, 1, 2, 2}, {1, 5, 2, 7}, ir::Layout::kNHWC)};
  nhwc.insert(nhwc.end(), params.begin(), params.end());
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kBatchNormalization, eps, nhwc)),
            (std::vector<float>{1, 11, 2, 15}));
}

TEST(ShapeOps, ExporterFlattenChain) {
  // Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])) on x [2,3,2,2] gives [2, 12].
  ir::Graph g("chain");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {2, 3, 2, 2}, ir::Layout::kNCHW);
  g.AddOutput(npu::testing::AddShapeChainReshape(g, x, "y"));
  g.AddOutput(g.FindTensor("t"));  // the computed target shape
  std::vector<float> v(24);
  for (int i = 0; i < 24; ++i) v[i] = float(i);
  auto r = Interpret(g, {F32({2, 3, 2, 2}, v)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].shape, (ir::Shape{2, 12}));
  EXPECT_EQ((*r)[0].values<float>()[13], 13.0f);
  EXPECT_EQ((*r)[1].values<int64_t>()[0], 2);
  EXPECT_EQ((*r)[1].values<int64_t>()[1], -1);
}

TEST(ShapeOps, FlattenSqueezeReshapeShapes) {
  auto shape_of = [](ir::OpKind k, const ir::Attributes& a, std::vector<Operand> in) {
    auto r = RunOp(k, a, in);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? (*r)[0].shape : ir::Shape{};
  };
  const Operand x = In({2, 3, 1, 4}, std::vector<float>(24));
  EXPECT_EQ(shape_of(ir::OpKind::kFlatten, A({{"axis", int64_t{2}}}), {x}), (ir::Shape{6, 4}));
  EXPECT_EQ(shape_of(ir::OpKind::kFlatten, A({{"axis", int64_t{0}}}), {x}), (ir::Shape{1, 24}));
  EXPECT_EQ(shape_of(ir::OpKind::kSqueeze, A({{"axes", Ints{2}}}), {x}), (ir::Shape{2, 3, 4}));
  EXPECT_EQ(shape_of(ir::OpKind::kUnsqueeze, A({{"axes", Ints{0, -1}}}), {x}),
            (ir::Shape{1, 2, 3, 1, 4, 1}));
  EXPECT_EQ(shape_of(ir::OpKind::kReshape, {}, {x, Const(I64({3}, {0, -1, 2}))}),
            (ir::Shape{2, 6, 2}));
  auto bad = RunOp(ir::OpKind::kReshape, {}, {x, Const(I64({2}, {5, -1}))});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("cannot reshape"), std::string::npos);
}

TEST(ShapeOps, ReshapeTargetTooLargeToCountIsAnError) {  // found by fuzz_onnx_import
  const Operand x = In({2, 3}, std::vector<float>(6));
  auto r =
      RunOp(ir::OpKind::kReshape, {}, {x, Const(I64({3}, {117440514, 3420042391718985727, -1}))});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("more than 2^63 elements"), std::string::npos);
}

TEST(Transpose, PermutesAndTagsLayouts) {
  auto r = RunOp(ir::OpKind::kTranspose, A({{"perm", Ints{0, 2, 3, 1}}}),
                 {In({1, 2, 1, 2}, {1, 2, 3, 4}, ir::Layout::kNCHW)});
  EXPECT_EQ(Floats(r), (std::vector<float>{1, 3, 2, 4}));
  EXPECT_EQ((*r)[0].layout, ir::Layout::kNHWC);
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kTranspose, {}, {In({2, 3}, {1, 2, 3, 4, 5, 6})})),
            (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(Pad, ConstantMode) {
  EXPECT_EQ(Floats(RunOp(ir::OpKind::kPad, {},
                         {In({1, 2}, {1, 2}), Const(I64({4}, {1, 0, 0, 1})), Const(F32({}, {9}))})),
            (std::vector<float>{9, 9, 9, 1, 2, 9}));
}

TEST(Quantize, RoundTripPerTensor) {
  ir::Graph g("q");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {4}, ir::Layout::kNone);
  ir::Tensor* s = g.AddConstant<float>("s", {}, {0.5f});
  ir::Tensor* zp = g.AddConstant<int8_t>("zp", {}, {int8_t{1}});
  ir::Tensor* q = g.AddNode(ir::OpKind::kQuantizeLinear, "q", {x, s, zp}, {"xq"})->output();
  g.AddOutput(q);
  g.AddOutput(g.AddNode(ir::OpKind::kDequantizeLinear, "dq", {q, s, zp}, {"y"})->output());
  auto r = Interpret(g, {F32({4}, {0.25f, 1.0f, -100.0f, 0.75f})});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto xq = (*r)[0].values<int8_t>();
  EXPECT_EQ(std::vector<int>(xq.begin(), xq.end()),
            (std::vector<int>{1, 3, -128, 3}));  // half-even
  EXPECT_EQ(Floats(StatusOr<std::vector<HostTensor>>(std::vector<HostTensor>{(*r)[1]})),
            (std::vector<float>{0, 1, -64.5f, 1}));
}

}  // namespace
}  // namespace npu::compiler::interp::testing
