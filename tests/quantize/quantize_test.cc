// The graph quantiser: the numbers it stores on a small hand-built graph (recomputed here from
// the formulas of docs/quantized-ir.md), the structure it gives the built-in small models, that
// its output passes ir::Verify and the quantised-IR checker, determinism, and its errors.
#include "compiler/quantize/quantize.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "compiler/interp/interpreter.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "compiler/passes/pipeline.h"
#include "compiler/qinterp/check.h"
#include "compiler/qinterp/host_io.h"
#include "compiler/qinterp/qinterp.h"
#include "compiler/quant/quant_math.h"
#include "workloads/models/models.h"

namespace npu::compiler::quantize {
namespace {

using interp::HostTensor;
using ir::OpKind;

std::vector<float> Ramp(int64_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = lo + (hi - lo) * static_cast<float>(i) / (n - 1);
  return v;
}

// x [1,2,3,3] NCHW -> conv 3x3 pads 1 (3 out) -> relu -> global average pool -> flatten -> fc 4,
// through the front-end pipeline.
ir::Graph TinyFloatGraph() {
  ir::Graph g("tiny");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 2, 3, 3}, ir::Layout::kNCHW);
  ir::Attributes conv;
  conv.Set("kernel_shape", std::vector<int64_t>{3, 3});
  conv.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  ir::Tensor* w = g.AddConstant("w", {3, 2, 3, 3}, Ramp(54, -0.8f, 0.5f));
  ir::Tensor* b = g.AddConstant("b", {3}, std::vector<float>{0.1f, -0.2f, 0.05f});
  ir::Tensor* c = g.AddNode(OpKind::kConv, "conv", {x, w, b}, {"c"}, conv)->output(0);
  ir::Tensor* r = g.AddNode(OpKind::kRelu, "relu", {c}, {"r"})->output(0);
  ir::Tensor* p = g.AddNode(OpKind::kGlobalAveragePool, "gap", {r}, {"p"})->output(0);
  ir::Attributes flat;
  flat.Set("axis", int64_t{1});
  ir::Tensor* f = g.AddNode(OpKind::kFlatten, "flatten", {p}, {"f"}, flat)->output(0);
  ir::Attributes gemm;
  gemm.Set("transB", int64_t{1});
  ir::Tensor* fw = g.AddConstant("fw", {4, 3}, Ramp(12, -1.0f, 1.0f));
  ir::Tensor* fb = g.AddConstant("fb", {4}, std::vector<float>{0.0f, 0.5f, -0.5f, 1.0f});
  g.AddOutput(g.AddNode(OpKind::kGemm, "fc", {f, fw, fb}, {"y"}, gemm)->output(0));
  passes::PassContext ctx;
  EXPECT_TRUE(passes::RunPipeline(g, {}, ctx).ok());
  return g;
}

CalibrationSet RampCalibration(const ir::Graph& g) {
  CalibrationSet c;
  c.samples.push_back({HostTensor::FromValues<float>({1, 2, 3, 3}, Ramp(18, -1.28f, 1.27f))});
  return c;
}

ir::Node* Only(const ir::Graph& g, OpKind kind) {
  std::vector<ir::Node*> n = g.NodesOfKind(kind);
  EXPECT_EQ(n.size(), 1u);
  return n.empty() ? nullptr : n[0];
}

TEST(Quantize, TinyGraphParametersFollowTheFormulas) {
  const ir::Graph f = TinyFloatGraph();
  StatusOr<ir::Graph> q = Quantize(f, RampCalibration(f), {.observer = Observer::kMinMax});
  ASSERT_TRUE(q.ok()) << q.status().message();
  // Input: NHWC int8 over [-1.28, 1.27].
  const ir::Tensor* x = q->inputs()[0];
  EXPECT_EQ(x->name(), "x");
  EXPECT_EQ(x->shape(), (ir::Shape{1, 3, 3, 2}));
  EXPECT_EQ(x->layout(), ir::Layout::kNHWC);
  EXPECT_FLOAT_EQ(x->quant().scale[0], 0.01f);
  EXPECT_EQ(x->quant().zero_point[0], 0);
  // Conv: OHWI weights, per-channel max|w| / 127, bias and multipliers from the scales.
  const ir::Node* conv = Only(*q, OpKind::kFusedConv);
  const ir::Tensor *w = conv->input(1), *b = conv->input(2), *y = conv->output(0);
  ASSERT_EQ(w->shape(), (ir::Shape{3, 3, 3, 2}));
  const std::vector<float> wf = Ramp(54, -0.8f, 0.5f);
  const float s_x = x->quant().scale[0], s_y = y->quant().scale[0];
  EXPECT_EQ(y->name(), "c");  // the pipeline fused the ReLU into the conv, which kept its name
  EXPECT_EQ(y->quant().zero_point[0], -128);
  EXPECT_EQ(conv->attrs().GetString("activation", ""), "relu");
  for (int64_t o = 0; o < 3; ++o) {
    float m = 0;
    for (int64_t i = 0; i < 18; ++i) m = std::max(m, std::fabs(wf[o * 18 + i]));
    const float s_w = w->quant().scale[o];
    EXPECT_FLOAT_EQ(s_w, m / 127.0f);
    // OHWI element (o, kh=2, kw=1, i=1) is OIHW element (o, 1, 2, 1).
    EXPECT_EQ(w->data<int8_t>()[((o * 3 + 2) * 3 + 1) * 2 + 1],
              std::nearbyint(wf[((o * 2 + 1) * 3 + 2) * 3 + 1] / s_w));
    const float bias[] = {0.1f, -0.2f, 0.05f};
    EXPECT_EQ(b->data<int32_t>()[o], std::nearbyint(double{bias[o]} / (double{s_x} * s_w)));
    const QuantizedMultiplier qm = *QuantizeMultiplier(double{s_x} * s_w / s_y);
    EXPECT_EQ(conv->attrs().GetInts("multiplier")[o], qm.multiplier);
    EXPECT_EQ(conv->attrs().GetInts("shift")[o], qm.shift);
  }
  // Global pool: s_x / s_y of its own calibrated output.
  const ir::Node* gap = Only(*q, OpKind::kGlobalAveragePool);
  const QuantizedMultiplier pm =
      *QuantizeMultiplier(double{s_y} / gap->output(0)->quant().scale[0]);
  EXPECT_EQ(gap->attrs().GetInt("multiplier", 0), pm.multiplier);
  EXPECT_EQ(gap->attrs().GetInt("shift", 0), pm.shift);
  // Gemm: weights [N, K], output named as the float output.
  const ir::Node* fc = Only(*q, OpKind::kGemm);
  EXPECT_EQ(fc->input(1)->shape(), (ir::Shape{4, 3}));
  EXPECT_EQ(q->outputs()[0]->name(), "y");
  EXPECT_TRUE(ir::Verify(*q).ok());
  EXPECT_TRUE(qinterp::CheckQuantizedGraph(*q).ok());
}

TEST(Quantize, TinyGraphInt8TracksFloat) {
  const ir::Graph f = TinyFloatGraph();
  const CalibrationSet calib = RampCalibration(f);
  StatusOr<ir::Graph> q = Quantize(f, calib);
  ASSERT_TRUE(q.ok()) << q.status().message();
  const std::vector<HostTensor> in = calib.samples[0];
  StatusOr<std::vector<HostTensor>> ref = interp::Interpret(f, in);
  ASSERT_TRUE(ref.ok());
  StatusOr<std::vector<int8_t>> qin = qinterp::QuantizeInput(*q->inputs()[0], in[0]);
  ASSERT_TRUE(qin.ok());
  StatusOr<std::vector<std::vector<int8_t>>> out = qinterp::InterpretQuantized(*q, {*qin});
  ASSERT_TRUE(out.ok()) << out.status().message();
  const HostTensor got = qinterp::DequantizeOutput(*q->outputs()[0], (*out)[0]);
  const float step = q->outputs()[0]->quant().scale[0];
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(got.values<float>()[i], (*ref)[0].values<float>()[i], 3 * step) << i;
  }
}

ir::Graph PipelineModel(const std::string& name, int64_t image_size = 0) {
  StatusOr<ir::Graph> g = workloads::BuildModel(name, {.image_size = image_size});
  EXPECT_TRUE(g.ok());
  passes::PassContext ctx;
  EXPECT_TRUE(passes::RunPipeline(*g, {}, ctx).ok());
  return std::move(*g);
}

CalibrationSet Seeded(const ir::Graph& g, int n) {
  CalibrationSet c;
  for (int i = 0; i < n; ++i) c.samples.push_back(workloads::MakeInputs(g, kCalibrationSeed + i));
  return c;
}

std::vector<OpKind> Kinds(const ir::Graph& g) {
  std::vector<OpKind> k;
  for (const ir::Node* n : g.nodes()) k.push_back(n->kind());
  return k;
}

TEST(Quantize, SmallCnnStructure) {
  const ir::Graph f = PipelineModel("small_cnn");
  StatusOr<ir::Graph> q = Quantize(f, Seeded(f, 2));
  ASSERT_TRUE(q.ok()) << q.status().message();
  EXPECT_EQ(Kinds(*q), (std::vector<OpKind>{OpKind::kFusedConv, OpKind::kMaxPool,
                                            OpKind::kFusedConv, OpKind::kFusedConv,
                                            OpKind::kFusedAdd, OpKind::kReshape, OpKind::kGemm}));
  EXPECT_EQ(q->inputs()[0]->shape(), (ir::Shape{1, 32, 32, 3}));
  EXPECT_EQ(q->outputs()[0]->shape(), (ir::Shape{1, 10}));
  const ir::Node* pool = Only(*q, OpKind::kMaxPool);
  EXPECT_EQ(pool->output(0)->quant().scale, pool->input(0)->quant().scale);
  const std::vector<ir::Node*> convs = q->NodesOfKind(OpKind::kFusedConv);
  EXPECT_EQ(convs[1]->attrs().GetString("activation", ""), "relu6");
  const ir::QuantParams& y2 = convs[1]->output(0)->quant();
  EXPECT_EQ(convs[1]->attrs().GetInt("clamp_max", 0),
            Relu6Clamp(y2.scale[0], y2.zero_point[0]).max);
  EXPECT_TRUE(qinterp::CheckQuantizedGraph(*q).ok());
}

TEST(Quantize, MlpMergesReluIntoGemm) {
  const ir::Graph f = PipelineModel("mlp");
  StatusOr<ir::Graph> q = Quantize(f, Seeded(f, 2));
  ASSERT_TRUE(q.ok()) << q.status().message();
  ASSERT_EQ(Kinds(*q), (std::vector<OpKind>(3, OpKind::kGemm)));
  const std::vector<ir::Node*> fcs = q->NodesOfKind(OpKind::kGemm);
  EXPECT_EQ(fcs[0]->output(0)->name(), "relu1");
  EXPECT_EQ(fcs[0]->attrs().GetString("activation", ""), "relu");
  EXPECT_EQ(fcs[0]->attrs().GetInt("clamp_min", 0), fcs[0]->output(0)->quant().zero_point[0]);
  EXPECT_EQ(fcs[2]->attrs().GetString("activation", ""), "none");
}

std::string Fingerprint(const ir::Graph& g) {
  std::string s = ir::PrintGraph(g);
  for (const ir::Tensor* t : g.tensors()) {
    if (t->is_constant()) s.append(t->bytes().begin(), t->bytes().end());
    for (float v : t->quant().scale) s += std::to_string(std::bit_cast<uint32_t>(v)) + ",";
  }
  return s;
}

TEST(Quantize, DeterministicForEveryObserver) {
  const ir::Graph f = PipelineModel("small_cnn");
  const CalibrationSet calib = Seeded(f, 3);
  for (Observer o : {Observer::kMinMax, Observer::kPercentile, Observer::kMse}) {
    SCOPED_TRACE(ObserverName(o));
    StatusOr<ir::Graph> a = Quantize(f, calib, {.observer = o});
    StatusOr<ir::Graph> b = Quantize(f, calib, {.observer = o});
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(Fingerprint(*a), Fingerprint(*b));
  }
}

TEST(Quantize, ObserversNarrowTheRangeOfAnOutlier) {
  const ir::Graph f = TinyFloatGraph();
  CalibrationSet calib;
  std::vector<float> v = Ramp(18, -1.28f, 1.27f);
  v[7] = 50.0f;  // one outlier in the input
  calib.samples.push_back({HostTensor::FromValues<float>({1, 2, 3, 3}, v)});
  const auto input_scale = [&](Observer o) {
    StatusOr<ir::Graph> q = Quantize(f, calib, {.observer = o, .percentile = 90.0});
    EXPECT_TRUE(q.ok()) << q.status().message();
    return q.ok() ? q->inputs()[0]->quant().scale[0] : 0.0f;
  };
  EXPECT_FLOAT_EQ(input_scale(Observer::kMinMax), 51.28f / 255.0f);
  EXPECT_LT(input_scale(Observer::kPercentile), 5.0f / 255.0f);
  EXPECT_LT(input_scale(Observer::kMse), 51.28f / 255.0f);
}

TEST(Quantize, ParametersAlreadyOnTheFloatGraphAreKept) {
  ir::Graph f = TinyFloatGraph();
  f.inputs()[0]->quant() = {{0.0123f}, {7}, -1};  // as FoldQdq leaves them
  StatusOr<ir::Graph> q = Quantize(f, RampCalibration(f));
  ASSERT_TRUE(q.ok()) << q.status().message();
  EXPECT_EQ(q->inputs()[0]->quant().scale, std::vector<float>{0.0123f});
  EXPECT_EQ(q->inputs()[0]->quant().zero_point, std::vector<int32_t>{7});
}

TEST(QuantizeErrors, CalibrationInputWithWrongShapeTypeOrCount) {
  const ir::Graph f = PipelineModel("small_cnn");
  CalibrationSet calib = Seeded(f, 2);
  calib.samples[1][0] = HostTensor::Zeros({ir::DType::kFloat32, {1, 3, 16, 16}});
  EXPECT_EQ(Quantize(f, calib).status().message(),
            "calibration sample 1, input 'input': given f32[1,3,16,16], the graph expects "
            "f32[1,3,32,32]");
  calib.samples[1][0] = HostTensor::Zeros({ir::DType::kInt32, {1, 3, 32, 32}});
  EXPECT_EQ(Quantize(f, calib).status().message(),
            "calibration sample 1, input 'input': given i32[1,3,32,32], the graph expects "
            "f32[1,3,32,32]");
  calib.samples[1].push_back(calib.samples[0][0]);
  EXPECT_EQ(Quantize(f, calib).status().message(),
            "calibration sample 1 has 2 inputs, graph 'small_cnn' has 1");
}

TEST(QuantizeErrors, NeedsThePipelineAndSupportedOps) {
  StatusOr<ir::Graph> raw = workloads::BuildModel("small_cnn");
  ASSERT_TRUE(raw.ok());
  const Status before = Quantize(*raw, Seeded(*raw, 1)).status();
  EXPECT_EQ(before.kind(), ErrorKind::kFailedPrecondition);
  EXPECT_NE(before.message().find("after the front-end pipeline"), std::string::npos);

  ir::Graph f = TinyFloatGraph();
  ir::Tensor* y = f.outputs()[0];
  ir::Attributes to_float;
  to_float.Set("to", int64_t{1});  // FLOAT
  ir::Tensor* s = f.AddNode(OpKind::kCast, "cast", {y}, {"cast"}, to_float)->output(0);
  s->set_dtype(ir::DType::kFloat32);
  s->set_shape(y->shape());
  f.SetOutput(0, s);
  const Status cast = Quantize(f, RampCalibration(f)).status();
  EXPECT_EQ(cast.kind(), ErrorKind::kUnimplemented);
  EXPECT_NE(cast.message().find("node 'cast' (cast) cannot be quantised"), std::string::npos)
      << cast.message();
}

// A reduction longer than the int32 accumulators hold is the model's limit, refused before any
// calibration (none is given here) and named, not reported as a compiler bug afterwards.
TEST(QuantizeErrors, ReductionsLongerThanTheAccumulatorsHoldAreTheModelsLimit) {
  constexpr int64_t k = 70000;
  ir::Graph g("long_fc");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, k}, ir::Layout::kNone);
  ir::Attributes gemm;
  gemm.Set("transB", int64_t{1});
  ir::Tensor* w = g.AddConstant("w", {2, k}, std::vector<float>(2 * k, 0.01f));
  g.AddOutput(g.AddNode(OpKind::kGemm, "fc", {x, w}, {"y"}, gemm)->output(0));
  passes::PassContext ctx;
  ASSERT_TRUE(passes::RunPipeline(g, {}, ctx).ok());
  const Status s = Quantize(g, {}).status();
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(s.message().find("node 'fc' (gemm) sums 70000 products per output"), std::string::npos)
      << s.message();
  EXPECT_EQ(s.message().find("compiler bug"), std::string::npos) << s.message();
}

TEST(QuantizeErrors, NoCalibrationAndNoModelParameters) {
  const ir::Graph f = TinyFloatGraph();
  const Status s = Quantize(f, {}).status();
  EXPECT_EQ(s.kind(), ErrorKind::kFailedPrecondition);
  EXPECT_EQ(s.message(),
            "tensor 'x' has no quantisation parameters: the model gives none and no calibration "
            "data was given");
  EXPECT_FALSE(Quantize(f, RampCalibration(f), {.percentile = 40.0}).ok());
  EXPECT_EQ(ParseObserver("kl").status().message(),
            "no observer named 'kl'; the observers are minmax, percentile, mse");
}

}  // namespace
}  // namespace npu::compiler::quantize
