// FP16 graphs (docs/quantized-ir.md, "FP16 graphs"): ConvertToFp16 on the built-in models (what
// each op becomes), the FP16 reference interpreter against a convolution written out here, its
// accuracy against float (cosine >= 0.9999, the target), and what it refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "compiler/accuracy/accuracy.h"
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

ir::Graph Pipeline(ir::Graph g) {
  passes::PassContext ctx;
  EXPECT_TRUE(passes::RunPipeline(g, {}, ctx).ok());
  return g;
}

ir::Graph BuiltIn(const std::string& name, int64_t image_size = 0) {
  StatusOr<ir::Graph> g = workloads::BuildModel(name, {.image_size = image_size});
  EXPECT_TRUE(g.ok());
  return Pipeline(std::move(*g));
}

TEST(Fp16Graph, SmallCnnBecomesF16OpsWithF32BiasesAndFp16Clamps) {
  const ir::Graph f = BuiltIn("small_cnn");
  StatusOr<ir::Graph> h = ConvertToFp16(f);
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_TRUE(qinterp::IsFp16Graph(*h));
  EXPECT_TRUE(qinterp::CheckQuantizedGraph(*h).ok());
  std::vector<OpKind> kinds;
  for (const ir::Node* n : h->nodes()) kinds.push_back(n->kind());
  EXPECT_EQ(kinds, (std::vector<OpKind>{OpKind::kFusedConv, OpKind::kMaxPool, OpKind::kFusedConv,
                                        OpKind::kFusedConv, OpKind::kAdd, OpKind::kReshape,
                                        OpKind::kGemm}));
  for (const ir::Tensor* t : h->tensors()) {
    if (!t->is_constant()) {
      EXPECT_EQ(t->dtype(), ir::DType::kFloat16) << t->name();
    }
  }
  const std::vector<ir::Node*> convs = h->NodesOfKind(OpKind::kFusedConv);
  EXPECT_EQ(convs[0]->input(1)->dtype(), ir::DType::kFloat16);
  EXPECT_EQ(convs[0]->input(2)->dtype(), ir::DType::kFloat32);
  // small_cnn's second convolution ends in ReLU6: bounds [0, 6] as FP16 bits.
  EXPECT_EQ(convs[1]->attrs().GetString("activation", ""), "relu6");
  EXPECT_EQ(convs[1]->attrs().GetInt("fp16_clamp_min", -1), 0x0000);
  EXPECT_EQ(convs[1]->attrs().GetInt("fp16_clamp_max", -1), 0x4600);
  // The weights are the float weights (OIHW) rounded once, re-laid out OHWI.
  const ir::Node* float_conv = f.NodesOfKind(OpKind::kFusedConv)[0];
  const auto fw = float_conv->input(1)->data<float>();
  const auto hw = convs[0]->input(1)->data<uint16_t>();
  const ir::Shape& s = float_conv->input(1)->shape();  // [O][I][kh][kw]
  for (int64_t i = 0; i < s[1]; ++i) {
    EXPECT_EQ(hw[((1 * s[2] + 2) * s[3] + 0) * s[1] + i],
              spec::FloatToFp16(fw[((1 * s[1] + i) * s[2] + 2) * s[3] + 0]));
  }
}

// One convolution, ReLU: the reference against the definition, with operands whose sums are
// exact in double (multiples of 1/64 in [-2, 2]).
TEST(Fp16Graph, ReferenceConvolutionIsTheExactSumRoundedOnceThenBiasedRoundedAndClamped) {
  ir::Graph g("conv");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 5, 5}, ir::Layout::kNCHW);
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> q(-128, 128);
  auto values = [&](size_t n) {
    std::vector<float> v(n);
    for (float& e : v) e = q(rng) / 64.0f;
    return v;
  };
  const std::vector<float> w = values(4 * 3 * 3 * 3), b = {0.5f, -0.25f, 1.0f / 3, 0};
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{3, 3});
  a.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  ir::Tensor* y = g.AddNode(OpKind::kConv, "conv",
                            {x, g.AddConstant("w", {4, 3, 3, 3}, w), g.AddConstant("b", {4}, b)},
                            {"conv"}, a)
                      ->output(0);
  y = g.AddNode(OpKind::kRelu, "relu", {y}, {"relu"})->output(0);
  g.AddOutput(y);
  StatusOr<ir::Graph> h = ConvertToFp16(Pipeline(std::move(g)));
  ASSERT_TRUE(h.ok()) << h.status().message();
  const std::vector<float> xv = values(3 * 5 * 5);  // NCHW
  const HostTensor in = HostTensor::FromValues({1, 3, 5, 5}, xv, ir::Layout::kNCHW);
  StatusOr<std::vector<int8_t>> bytes = qinterp::QuantizeInput(*h->inputs()[0], in);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  StatusOr<std::vector<std::vector<int8_t>>> out = qinterp::InterpretQuantized(*h, {*bytes});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ((*out)[0].size(), 5u * 5 * 4 * 2);
  for (int oy = 0; oy < 5; ++oy) {
    for (int ox = 0; ox < 5; ++ox) {
      for (int o = 0; o < 4; ++o) {
        double sum = 0;
        for (int c = 0; c < 3; ++c) {
          for (int ky = 0; ky < 3; ++ky) {
            for (int kx = 0; kx < 3; ++kx) {
              const int iy = oy + ky - 1, ix = ox + kx - 1;
              if (iy < 0 || iy >= 5 || ix < 0 || ix >= 5) continue;
              sum += double(xv[(c * 5 + iy) * 5 + ix]) * w[((o * 3 + c) * 3 + ky) * 3 + kx];
            }
          }
        }
        const float acc = static_cast<float>(sum) + b[o];  // FP32: the sum exact, then the bias
        const uint16_t want = spec::FloatToFp16(std::max(acc, 0.0f));
        ASSERT_EQ(spec::LoadFp16((*out)[0].data(), (oy * 5 + ox) * 4 + o), want)
            << oy << "," << ox << "," << o;
      }
    }
  }
}

double OutputCosine(const std::string& model, int64_t image_size) {
  const ir::Graph f = BuiltIn(model, image_size);
  StatusOr<ir::Graph> h = ConvertToFp16(f);
  EXPECT_TRUE(h.ok()) << h.status().message();
  std::vector<std::vector<HostTensor>> eval;
  for (uint32_t s = 0; s < 2; ++s) eval.push_back(workloads::MakeInputs(f, kEvaluationSeed + s));
  StatusOr<accuracy::AccuracyReport> r = accuracy::CompareAccuracy(f, *h, eval);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r->outputs.at(0).metrics.min_cosine;
}

// The target: FP16 within cosine 0.9999 of float on every built-in model it covers.
TEST(Fp16Graph, EveryCoveredBuiltInModelIsWithinCosine09999OfFloat) {
  EXPECT_GE(OutputCosine("mlp", 0), 0.9999);
  EXPECT_GE(OutputCosine("small_cnn", 0), 0.9999);
  EXPECT_GE(OutputCosine("resnet18", 64), 0.9999);
  EXPECT_GE(OutputCosine("mobilenet_v2", 96), 0.9999);
}

TEST(Fp16Graph, AnOpWithoutAnFp16FormIsRefusedNamingTheNode) {
  ir::Graph g("sigmoid");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 8}, ir::Layout::kNone);
  g.AddOutput(g.AddNode(OpKind::kSigmoid, "squash", {x}, {"y"})->output(0));
  StatusOr<ir::Graph> h = ConvertToFp16(Pipeline(std::move(g)));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().kind(), ErrorKind::kUnimplemented);
  EXPECT_NE(h.status().message().find("'squash'"), std::string::npos) << h.status().message();
  EXPECT_NE(h.status().message().find("FP16"), std::string::npos) << h.status().message();
}

TEST(Fp16Graph, TheCheckerRefusesBadClampsAndMixedTypes) {
  StatusOr<ir::Graph> h = ConvertToFp16(BuiltIn("small_cnn"));
  ASSERT_TRUE(h.ok());
  ir::Node* conv = h->NodesOfKind(OpKind::kFusedConv)[0];
  conv->attrs().Set("fp16_clamp_max", int64_t{70000});
  Status s = qinterp::CheckQuantizedGraph(*h);
  EXPECT_NE(s.message().find("fp16_clamp_max 70000 is not 16 bits"), std::string::npos)
      << s.message();
  conv->attrs().Set("fp16_clamp_max", int64_t{0x7C00});
  conv->output(0)->set_dtype(ir::DType::kInt8);
  s = qinterp::CheckQuantizedGraph(*h);
  EXPECT_NE(s.message().find("activation %conv1 needs one scale and one zero point"), std::string::npos)
      << s.message();  // no longer an FP16 graph: an int8 value without parameters
}

}  // namespace
}  // namespace npu::compiler::quantize
