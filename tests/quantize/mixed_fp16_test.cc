// Mixed int8 and FP16 graphs (docs/quantized-ir.md, "Mixed int8 and FP16"): QuantizeOptions::
// fp16_layers makes those layers FP16, the pools, adds and views after them follow, and values
// change type through DequantizeLinear / QuantizeLinear nodes. The reference computes the
// conversions as hw/spec/fp16.h defines them; accuracy rises with the FP16 layers.
#include <gtest/gtest.h>

#include <algorithm>

#include "compiler/accuracy/accuracy.h"
#include "compiler/passes/pass_context.h"
#include "compiler/passes/pipeline.h"
#include "compiler/qinterp/check.h"
#include "compiler/qinterp/fp16.h"
#include "compiler/qinterp/host_io.h"
#include "compiler/qinterp/qinterp.h"
#include "compiler/quantize/quantize.h"
#include "hw/spec/fp16.h"
#include "workloads/models/models.h"

namespace npu::compiler::quantize {
namespace {

using interp::HostTensor;
using ir::OpKind;

ir::Graph BuiltIn(const std::string& name, int64_t image_size = 0) {
  StatusOr<ir::Graph> g = workloads::BuildModel(name, {.image_size = image_size});
  EXPECT_TRUE(g.ok());
  passes::PassContext ctx;
  EXPECT_TRUE(passes::RunPipeline(*g, {}, ctx).ok());
  return std::move(*g);
}

CalibrationSet Calibration(const ir::Graph& f) {
  CalibrationSet c;
  for (uint32_t s = 0; s < 4; ++s) c.samples.push_back(workloads::MakeInputs(f, kCalibrationSeed + s));
  return c;
}

std::vector<std::string> MacLayers(const ir::Graph& f) {
  std::vector<std::string> names;
  for (const ir::Node* n : f.nodes()) {
    if (n->kind() == OpKind::kFusedConv || n->kind() == OpKind::kGemm) names.push_back(n->name());
  }
  return names;
}

const ir::Node* NodeNamed(const ir::Graph& g, const std::string& name) {
  for (const ir::Node* n : g.nodes()) {
    if (n->name() == name) return n;
  }
  return nullptr;
}

double WorstSnr(const ir::Graph& f, const ir::Graph& q) {
  std::vector<std::vector<HostTensor>> eval;
  for (uint32_t s = 0; s < 2; ++s) eval.push_back(workloads::MakeInputs(f, kEvaluationSeed + s));
  StatusOr<accuracy::AccuracyReport> r = accuracy::CompareAccuracy(f, q, eval);
  EXPECT_TRUE(r.ok()) << r.status().message();
  double worst = 1e9;
  for (const auto& o : r->outputs) worst = std::min(worst, o.metrics.snr_db);
  return worst;
}

TEST(MixedFp16, OneFp16ConvolutionGetsConversionsOnItsBorders) {
  const ir::Graph f = BuiltIn("small_cnn");
  const std::vector<std::string> macs = MacLayers(f);
  ASSERT_GE(macs.size(), 3u);
  StatusOr<ir::Graph> q = Quantize(f, Calibration(f), {.fp16_layers = {macs[1]}});
  ASSERT_TRUE(q.ok()) << q.status().message();
  ASSERT_TRUE(qinterp::CheckQuantizedGraph(*q).ok());
  const ir::Node* conv = NodeNamed(*q, macs[1]);
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->output(0)->dtype(), ir::DType::kFloat16);
  EXPECT_EQ(conv->input(1)->dtype(), ir::DType::kFloat16);
  // Its input came through a DequantizeLinear of an int8 value.
  const ir::Node* in = conv->input(0)->producer();
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->kind(), OpKind::kDequantizeLinear);
  EXPECT_EQ(in->input(0)->dtype(), ir::DType::kInt8);
  // Every other MAC layer stays int8, so each reader of the FP16 value is a QuantizeLinear, or
  // an op that follows FP16 inputs.
  for (const std::string& name : macs) {
    if (name != macs[1]) {
      EXPECT_EQ(NodeNamed(*q, name)->output(0)->dtype(), ir::DType::kInt8) << name;
    }
  }
  int to_int8 = 0;
  for (const ir::Node* n : q->nodes()) to_int8 += n->kind() == OpKind::kQuantizeLinear;
  EXPECT_GE(to_int8, 1);
  // The graph's inputs and outputs stay int8: the host converts as for an int8 graph.
  EXPECT_EQ(q->inputs()[0]->dtype(), ir::DType::kInt8);
}

// An input read by FP16 layers alone is FP16 itself: no int8 rounding before them.
TEST(MixedFp16, AnInputReadOnlyByFp16LayersIsFp16) {
  const ir::Graph f = BuiltIn("small_cnn");
  const std::vector<std::string> macs = MacLayers(f);
  StatusOr<ir::Graph> q = Quantize(f, Calibration(f), {.fp16_layers = {macs[0]}});
  ASSERT_TRUE(q.ok()) << q.status().message();
  EXPECT_EQ(q->inputs()[0]->dtype(), ir::DType::kFloat16);
  EXPECT_TRUE(q->inputs()[0]->quant().empty());
  EXPECT_FALSE(qinterp::IsFp16Graph(*q));  // the later layers are int8
  const std::vector<int8_t> x = *qinterp::QuantizeInput(*q->inputs()[0], workloads::MakeInputs(f, 7)[0]);
  EXPECT_EQ(x.size(), 2 * size_t(ir::NumElements(q->inputs()[0]->shape())));
  EXPECT_TRUE(qinterp::InterpretQuantized(*q, {x}).ok());
}

TEST(MixedFp16, ConversionsComputeWhatTheSpecDefines) {
  const ir::Graph f = BuiltIn("small_cnn");
  const std::vector<std::string> macs = MacLayers(f);
  StatusOr<ir::Graph> q = Quantize(f, Calibration(f), {.fp16_layers = {macs[1]}});
  ASSERT_TRUE(q.ok()) << q.status().message();
  std::unordered_map<std::string, std::vector<int8_t>> seen;
  qinterp::QInterpretOptions o;
  o.observe = [&](const ir::Tensor& t, std::span<const int8_t> v) {
    seen[t.name()].assign(v.begin(), v.end());
  };
  const std::vector<int8_t> x = *qinterp::QuantizeInput(*q->inputs()[0], workloads::MakeInputs(f, 7)[0]);
  ASSERT_TRUE(qinterp::InterpretQuantized(*q, {x}, o).ok());
  int checked = 0;
  for (const ir::Node* n : q->nodes()) {
    const std::vector<int8_t>& in = n->input(0)->producer() ? seen.at(n->input(0)->name()) : x;
    const std::vector<int8_t>& out = seen.at(n->output(0)->name());
    if (n->kind() == OpKind::kDequantizeLinear) {
      const ir::QuantParams& p = n->input(0)->quant();
      ASSERT_EQ(out.size(), 2 * in.size());
      for (size_t i = 0; i < in.size(); ++i) {
        ASSERT_EQ(spec::LoadFp16(out.data(), i), spec::DequantizeToFp16(in[i] - p.zero_point[0], p.scale[0]));
      }
      ++checked;
    } else if (n->kind() == OpKind::kQuantizeLinear) {
      const ir::QuantParams& p = n->output(0)->quant();
      ASSERT_EQ(2 * out.size(), in.size());
      for (size_t i = 0; i < out.size(); ++i) {
        const int64_t v = p.zero_point[0] + int64_t{spec::QuantizeFp16(spec::LoadFp16(in.data(), i),
                                                                         spec::Fp16InverseScale(p.scale[0]))};
        ASSERT_EQ(out[i], std::clamp<int64_t>(v, -128, 127));
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 2);
}

TEST(MixedFp16, EveryLayerFp16IsFarMoreAccurateThanInt8) {
  const ir::Graph f = BuiltIn("resnet18", 32);
  const std::vector<std::string> macs = MacLayers(f);
  const CalibrationSet calib = Calibration(f);
  StatusOr<ir::Graph> int8 = Quantize(f, calib);
  StatusOr<ir::Graph> half = Quantize(f, calib, {.fp16_layers = {macs.begin() + macs.size() / 2, macs.end()}});
  StatusOr<ir::Graph> mixed = Quantize(f, calib, {.fp16_layers = {macs.begin(), macs.end()}});
  ASSERT_TRUE(int8.ok() && half.ok() && mixed.ok()) << mixed.status().message();
  const double s8 = WorstSnr(f, *int8), sh = WorstSnr(f, *half), s16 = WorstSnr(f, *mixed);
  EXPECT_GT(sh, s8 + 1.0) << s8 << " " << sh;
  EXPECT_GT(s16, s8 + 10.0) << s8 << " " << s16;
}

// Ops whose FP16 form would be refused stay int8 beside an FP16 layer, so mixing never fails:
// a pool followed by a ReLU (POOL has no FP16 clamp), an add of a constant.
TEST(MixedFp16, OpsWithoutAnFp16FormStayInt8) {
  ir::Graph g("pool_relu_add");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 2, 4, 4}, ir::Layout::kNCHW);
  ir::Attributes conv;
  conv.Set("kernel_shape", std::vector<int64_t>{1, 1});
  std::vector<float> w(3 * 2);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.25f * float(i) - 0.5f;
  ir::Tensor* c = g.AddNode(OpKind::kConv, "conv", {x, g.AddConstant("w", {3, 2, 1, 1}, w)}, {"c"},
                            conv)->output(0);
  ir::Attributes pool;
  pool.Set("kernel_shape", std::vector<int64_t>{2, 2});
  pool.Set("strides", std::vector<int64_t>{2, 2});
  ir::Tensor* p = g.AddNode(OpKind::kMaxPool, "pool", {c}, {"p"}, pool)->output(0);
  ir::Tensor* r = g.AddNode(OpKind::kRelu, "relu", {p}, {"r"})->output(0);
  ir::Tensor* k = g.AddConstant("k", {1}, std::vector<float>{0.5f});
  g.AddOutput(g.AddNode(OpKind::kAdd, "add", {r, k}, {"y"})->output(0));
  passes::PassContext ctx;
  ASSERT_TRUE(passes::RunPipeline(g, {}, ctx).ok());
  const std::vector<std::string> macs = MacLayers(g);
  ASSERT_EQ(macs.size(), 1u);
  StatusOr<ir::Graph> q = Quantize(g, Calibration(g), {.fp16_layers = {macs[0]}});
  ASSERT_TRUE(q.ok()) << q.status().message();
  EXPECT_EQ(NodeNamed(*q, macs[0])->output(0)->dtype(), ir::DType::kFloat16);
  EXPECT_EQ(NodeNamed(*q, "pool")->output(0)->dtype(), ir::DType::kInt8);
  EXPECT_EQ(NodeNamed(*q, "pool")->input(0)->producer()->kind(), OpKind::kQuantizeLinear);
}

TEST(MixedFp16, TheCheckerRefusesAConversionOfTheWrongType) {
  const ir::Graph f = BuiltIn("small_cnn");
  StatusOr<ir::Graph> q = Quantize(f, Calibration(f), {.fp16_layers = {MacLayers(f)[1]}});
  ASSERT_TRUE(q.ok());
  ir::Node* d = q->NodesOfKind(OpKind::kDequantizeLinear)[0];
  d->output(0)->set_dtype(ir::DType::kInt8);
  d->output(0)->quant() = d->input(0)->quant();
  const Status s = qinterp::CheckQuantizedGraph(*q);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(d->name()), std::string::npos) << s.message();
}

}  // namespace
}  // namespace npu::compiler::quantize
