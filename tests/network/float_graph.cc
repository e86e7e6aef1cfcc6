// The float-graph builder and the end-to-end check.
#include "tests/network/float_graph.h"

#include <gtest/gtest.h>

#include <cmath>

#include "compiler/interp/interpreter.h"
#include "compiler/passes/pipeline.h"
#include "compiler/qinterp/host_io.h"
#include "compiler/qinterp/qinterp.h"
#include "compiler/quantize/quantize.h"
#include "tests/network/network_test_util.h"

namespace npu::compiler::testing {

ir::Tensor* FloatBuilder::Input(ir::Shape shape) {
  return g_.AddInput("x", ir::DType::kFloat32, shape,
                     shape.size() == 4 ? ir::Layout::kNCHW : ir::Layout::kNone);
}
ir::Tensor* FloatBuilder::Const(ir::Shape shape, float scale) {
  std::vector<float> v(ir::NumElements(shape));
  std::normal_distribution<float> d(0.0f, scale);
  for (float& x : v) x = d(rng_);
  return g_.AddConstant(g_.UniqueName("c"), shape, v);
}
ir::Tensor* FloatBuilder::Scalar(float v) {
  return g_.AddConstant(g_.UniqueName("s"), {}, std::vector<float>{v});
}
ir::Tensor* FloatBuilder::Floats(std::vector<float> v) {
  const int64_t n = int64_t(v.size());
  return g_.AddConstant(g_.UniqueName("f"), {n}, v);
}
ir::Tensor* FloatBuilder::Ints(std::vector<int64_t> v) {
  const int64_t n = int64_t(v.size());
  return g_.AddConstant(g_.UniqueName("i"), {n}, v);
}
ir::Tensor* FloatBuilder::Op(ir::OpKind k, std::vector<ir::Tensor*> in, ir::Attributes a) {
  const std::string name = g_.UniqueName(std::string(ir::OpName(k)));
  return g_.AddNode(k, name, std::move(in), {name}, std::move(a))->output(0);
}
ir::Tensor* FloatBuilder::Conv(ir::Tensor* x, int64_t in_c, int64_t out_c, int64_t k) {
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{k, k});
  a.Set("pads", std::vector<int64_t>{k / 2, k / 2, k / 2, k / 2});
  return Op(ir::OpKind::kConv, {x, Const({out_c, in_c, k, k}), Const({out_c}, 0.1f)}, a);
}
ir::Graph FloatBuilder::Finish(ir::Tensor* y) {
  g_.AddOutput(y);
  return std::move(g_);
}

ir::Attributes Attr(const std::string& name, ir::AttrValue v) {
  ir::Attributes a;
  a.Set(name, std::move(v));
  return a;
}

std::vector<interp::HostTensor> Sample(const ir::Graph& g, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0.0f, 1.0f);
  std::vector<interp::HostTensor> in;
  for (const ir::Tensor* t : g.inputs()) {
    std::vector<float> v(ir::NumElements(t->shape()));
    for (float& x : v) x = d(rng);
    in.push_back(interp::HostTensor::FromValues(t->shape(), v, t->layout()));
  }
  return in;
}

int NpuLayers(const CompiledModel& m, const std::string& op) {
  int n = 0;
  for (const ModelLayer& l : m.layers) n += !l.on_cpu && l.op == op;
  return n;
}
int CpuLayers(const CompiledModel& m, const std::string& op) {
  int n = 0;
  for (const ModelLayer& l : m.layers) n += l.on_cpu && l.op == op;
  return n;
}

StatusOr<ir::Graph> PipelineAndQuantize(ir::Graph& f) {
  passes::PassContext ctx;
  NPU_TRY(passes::RunPipeline(f, {}, ctx));
  quantize::CalibrationSet calib;
  for (uint32_t s = 0; s < 4; ++s) calib.samples.push_back(Sample(f, 100 + s));
  return quantize::Quantize(f, calib);
}

namespace {

double Cosine(std::span<const float> a, std::span<const float> b) {
  double ab = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) ab += a[i] * b[i], aa += a[i] * a[i], bb += b[i] * b[i];
  return ab / std::sqrt(aa * bb);
}

void Checked(ir::Graph f, double min_cosine, CompiledModel& compiled) {
  StatusOr<ir::Graph> q = PipelineAndQuantize(f);
  ASSERT_TRUE(q.ok()) << q.status().message();
  for (const NamedConfig& c : SweepConfigs()) {
    SCOPED_TRACE(c.name);
    CompiledModel m = ExpectBitExact(*q, c.config, 1);
    if (c.name == "default") compiled = std::move(m);
  }
  const std::vector<interp::HostTensor> in = Sample(f, 100);
  StatusOr<std::vector<interp::HostTensor>> ref = interp::Interpret(f, in);
  StatusOr<std::vector<int8_t>> qin = qinterp::QuantizeInput(*q->inputs()[0], in[0]);
  ASSERT_TRUE(ref.ok() && qin.ok());
  StatusOr<std::vector<std::vector<int8_t>>> out = qinterp::InterpretQuantized(*q, {*qin});
  ASSERT_TRUE(out.ok()) << out.status().message();
  StatusOr<interp::HostTensor> y =
      qinterp::ToShape(qinterp::DequantizeOutput(*q->outputs()[0], (*out)[0]), (*ref)[0].shape);
  ASSERT_TRUE(y.ok()) << y.status().message();
  EXPECT_GE(Cosine(y->values<float>(), (*ref)[0].values<float>()), min_cosine);
}

}  // namespace

CompiledModel Check(ir::Graph f, double min_cosine) {
  CompiledModel compiled;
  Checked(std::move(f), min_cosine, compiled);
  return compiled;
}

}  // namespace npu::compiler::testing
