// Quantised models: the torch-exported QDQ model (tests/onnx/data/qdq_cnn) keeps its scales and
// zero points exactly through FoldQdq, the pipeline and Quantize; QLinearConv / QLinearMatMul
// keep theirs (weights and int32 bias bit for bit); what the quantised IR cannot express is
// refused naming the node.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "compiler/interp/interpreter.h"
#include "compiler/onnx/onnx_import.h"
#include "compiler/qinterp/host_io.h"
#include "compiler/qinterp/qinterp.h"
#include "compiler/quantize/qdq_fold.h"
#include "tests/onnx/test_data.h"

namespace npu::compiler::quantize {
namespace {

using interp::HostTensor;
using ir::OpKind;

ir::Graph Import(const std::string& file) {
  StatusOr<ir::Graph> g = ImportOnnxFile(onnx_test::DataPath(file));
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(*g) : ir::Graph();
}

HostTensor Npy(const std::string& file) {
  StatusOr<onnx_test::NpyArray> a = onnx_test::ReadNpy(onnx_test::DataPath(file));
  EXPECT_TRUE(a.ok());
  return HostTensor::FromValues(a->shape, a->values);
}

std::vector<float> FloatsOf(const ir::Tensor* t) {
  return {t->data<float>().begin(), t->data<float>().end()};
}

// The model's own parameters, read from the imported Q nodes: input, conv weight, ReLU output.
struct ModelParams {
  float x_scale, y_scale;
  int32_t x_zp, y_zp;  // uint8
  std::vector<float> w_scale;
};
ModelParams ParamsOf(const ir::Graph& g) {
  const std::vector<ir::Node*> q = g.NodesOfKind(OpKind::kQuantizeLinear);
  return {q[0]->input(1)->data<float>()[0], q[2]->input(1)->data<float>()[0],
          q[0]->input(2)->data<uint8_t>()[0], q[2]->input(2)->data<uint8_t>()[0],
          FloatsOf(q[1]->input(1))};
}

int32_t ToInt(float f) { return static_cast<int32_t>(std::bit_cast<uint32_t>(f)); }

class QdqModel : public ::testing::TestWithParam<std::string> {};

TEST_P(QdqModel, KeepsTheModelsScalesExactly) {
  ir::Graph g = Import(GetParam());
  const ModelParams m = ParamsOf(g);
  CalibrationSet calib;  // only for the float classifier after the last QuantizeLinear
  calib.samples.push_back({Npy("qdq_cnn.input.npy")});
  passes::PassContext ctx;
  StatusOr<ir::Graph> q = QuantizeImported(std::move(g), calib, {}, &ctx);
  ASSERT_TRUE(q.ok()) << q.status().message();
  EXPECT_EQ(ctx.Stat("fold-qdq.quantize"), 2);
  // The input: the first QuantizeLinear's parameters (uint8 zero point shifted to int8).
  const ir::Tensor* x = q->inputs()[0];
  EXPECT_EQ(ToInt(x->quant().scale[0]), ToInt(m.x_scale));
  EXPECT_EQ(x->quant().zero_point[0], m.x_zp - 128);
  // The convolution: the weight scales per channel and the ReLU output's parameters.
  const std::vector<ir::Node*> convs = q->NodesOfKind(OpKind::kFusedConv);
  ASSERT_EQ(convs.size(), 1u);
  const ir::Tensor* w = convs[0]->input(1);
  ASSERT_EQ(w->quant().scale.size(), m.w_scale.size());
  for (size_t o = 0; o < m.w_scale.size(); ++o) {
    EXPECT_EQ(ToInt(w->quant().scale[o]), ToInt(m.w_scale[o])) << o;
  }
  const ir::Tensor* y = convs[0]->output(0);
  EXPECT_EQ(ToInt(y->quant().scale[0]), ToInt(m.y_scale));
  EXPECT_EQ(y->quant().zero_point[0], m.y_zp - 128);
  EXPECT_EQ(convs[0]->attrs().GetString("activation", ""), "relu");
  // No Q/DQ left to run, and the int8 graph reproduces torch's output (fake quantisation).
  for (const ir::Node* n : q->nodes()) {
    EXPECT_NE(n->kind(), OpKind::kQuantizeLinear);
    EXPECT_NE(n->kind(), OpKind::kDequantizeLinear);
  }
  StatusOr<std::vector<int8_t>> in = qinterp::QuantizeInput(*x, Npy("qdq_cnn.input.npy"));
  ASSERT_TRUE(in.ok()) << in.status().message();
  StatusOr<std::vector<std::vector<int8_t>>> out = qinterp::InterpretQuantized(*q, {*in});
  ASSERT_TRUE(out.ok()) << out.status().message();
  const HostTensor got = qinterp::DequantizeOutput(*q->outputs()[0], (*out)[0]);
  const HostTensor want = Npy("qdq_cnn.output.npy");
  const float step = q->outputs()[0]->quant().scale[0];
  for (int64_t i = 0; i < want.num_elements(); ++i) {
    EXPECT_NEAR(got.values<float>()[i], want.values<float>()[i], 3 * step) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Opsets, QdqModel,
                         ::testing::Values("qdq_cnn.op13.onnx", "qdq_cnn.op17.onnx"));

TEST(FoldQdq, LeavesTheFloatModelCarryingTheParameters) {
  ir::Graph g = Import("qdq_cnn.op13.onnx");
  const ModelParams m = ParamsOf(g);
  passes::PassContext ctx;
  ASSERT_TRUE(FoldQdq(g, ctx).ok());
  for (const ir::Node* n : g.nodes()) {
    EXPECT_NE(n->kind(), OpKind::kQuantizeLinear);
    EXPECT_NE(n->kind(), OpKind::kDequantizeLinear);
  }
  EXPECT_EQ(g.inputs()[0]->quant().zero_point, std::vector<int32_t>{m.x_zp - 128});
  const ir::Node* conv = g.NodesOfKind(OpKind::kConv)[0];
  EXPECT_EQ(conv->input(1)->name(), "conv.weight.dq");
  EXPECT_EQ(conv->input(1)->quant().scale, m.w_scale);
  EXPECT_EQ(conv->input(1)->quant().axis, 0);
  // The ReLU's output and, for the fusion to come, the convolution's output carry y's params.
  EXPECT_EQ(conv->output(0)->quant().scale, std::vector<float>{m.y_scale});
}

// x f32 [1,2,3,3] -> Q(s 0.05, zp 3) -> QLinearConv(w i8 [2,2,3,3], s_w per channel, B i32)
// -> y (s 0.1, zp -4) -> QLinearMatMul? No: -> DQ -> output. Built in the IR as import gives it.
ir::Graph QLinearGraph() {
  ir::Graph g("qlinear");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 2, 3, 3}, ir::Layout::kNCHW);
  ir::Tensor* xs = g.AddConstant<float>("xs", {}, {0.05f});
  ir::Tensor* xz = g.AddConstant<int8_t>("xz", {}, {3});
  ir::Tensor* xq = g.AddNode(OpKind::kQuantizeLinear, "q", {x, xs, xz}, {"xq"})->output(0);
  std::vector<int8_t> w(36);
  for (int i = 0; i < 36; ++i) w[i] = static_cast<int8_t>((i * 29) % 255 - 127);
  ir::Tensor* wt = g.AddConstant("w", {2, 2, 3, 3}, w);
  ir::Tensor* ws = g.AddConstant<float>("ws", {2}, {0.01f, 0.003f});
  ir::Tensor* wz = g.AddConstant<int8_t>("wz", {2}, {0, 0});
  ir::Tensor* ys = g.AddConstant<float>("ys", {}, {0.1f});
  ir::Tensor* yz = g.AddConstant<int8_t>("yz", {}, {-4});
  ir::Tensor* b = g.AddConstant<int32_t>("b", {2}, {1234, -5678});
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{3, 3});
  a.Set("strides", std::vector<int64_t>{1, 1});
  a.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  a.Set("dilations", std::vector<int64_t>{1, 1});
  a.Set("group", int64_t{1});
  ir::Tensor* yq =
      g.AddNode(OpKind::kQLinearConv, "qconv", {xq, xs, xz, wt, ws, wz, ys, yz, b}, {"yq"}, a)
          ->output(0);
  g.AddOutput(g.AddNode(OpKind::kDequantizeLinear, "dq", {yq, ys, yz}, {"y"})->output(0));
  return g;
}

TEST(FoldQdq, QLinearConvKeepsWeightsAndBiasBitForBit) {
  const ir::Graph g = QLinearGraph();
  std::vector<float> xv(18);
  for (int i = 0; i < 18; ++i) xv[i] = 0.37f * static_cast<float>(i % 7) - 1.0f;
  const HostTensor x = HostTensor::FromValues<float>({1, 2, 3, 3}, xv, ir::Layout::kNCHW);
  StatusOr<std::vector<HostTensor>> ref = interp::Interpret(g, {x});  // ONNX's float reference
  ASSERT_TRUE(ref.ok()) << ref.status().message();
  StatusOr<ir::Graph> q = QuantizeImported(g.Clone(), {});  // no calibration needed at all
  ASSERT_TRUE(q.ok()) << q.status().message();
  const ir::Node* conv = q->NodesOfKind(OpKind::kFusedConv)[0];
  EXPECT_EQ(conv->input(1)->quant().scale, (std::vector<float>{0.01f, 0.003f}));
  const auto wq = conv->input(1)->data<int8_t>();
  const auto w = g.FindTensor("w")->data<int8_t>();
  EXPECT_EQ(wq[((1 * 3 + 2) * 3 + 0) * 2 + 1], w[((1 * 2 + 1) * 3 + 2) * 3 + 0]);  // OHWI
  EXPECT_EQ(std::vector<int32_t>(conv->input(2)->data<int32_t>().begin(),
                                 conv->input(2)->data<int32_t>().end()),
            (std::vector<int32_t>{1234, -5678}));
  EXPECT_EQ(q->outputs()[0]->quant().zero_point, std::vector<int32_t>{-4});
  // Against the float reference (half-to-even in float) the integer result is within a step.
  StatusOr<std::vector<int8_t>> in = qinterp::QuantizeInput(*q->inputs()[0], x);
  ASSERT_TRUE(in.ok());
  StatusOr<std::vector<std::vector<int8_t>>> out = qinterp::InterpretQuantized(*q, {*in});
  ASSERT_TRUE(out.ok()) << out.status().message();
  StatusOr<HostTensor> got =
      qinterp::ToShape(qinterp::DequantizeOutput(*q->outputs()[0], (*out)[0]), (*ref)[0].shape);
  ASSERT_TRUE(got.ok());
  for (int64_t i = 0; i < got->num_elements(); ++i) {
    EXPECT_NEAR(got->values<float>()[i], (*ref)[0].values<float>()[i], 0.1f + 1e-5f) << i;
  }
}

TEST(FoldQdq, RefusesWhatTheQuantisedIrCannotExpress) {
  ir::Graph per_channel = QLinearGraph();
  ir::Node* q = per_channel.NodesOfKind(OpKind::kQuantizeLinear)[0];
  per_channel.SetNodeInput(q, 1, per_channel.AddConstant<float>("xs2", {2}, {0.05f, 0.06f}));
  per_channel.SetNodeInput(q, 2, per_channel.AddConstant<int8_t>("xz2", {2}, {3, 3}));
  passes::PassContext ctx;
  Status s = FoldQdq(per_channel, ctx);
  EXPECT_EQ(s.kind(), ErrorKind::kUnimplemented);
  EXPECT_NE(s.message().find("node 'q' (quantize_linear): per-channel activation"),
            std::string::npos)
      << s.message();

  ir::Graph requant = QLinearGraph();
  ir::Node* dq = requant.NodesOfKind(OpKind::kDequantizeLinear)[0];
  requant.SetNodeInput(dq, 1, requant.AddConstant<float>("ys2", {}, {0.2f}));
  s = FoldQdq(requant, ctx);
  EXPECT_EQ(s.kind(), ErrorKind::kUnimplemented);
  EXPECT_NE(s.message().find("node 'dq' (dequantize_linear): reads %yq with other parameters"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace npu::compiler::quantize
