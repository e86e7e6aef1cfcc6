// End to end on the built-in models: quantise with the built-in calibration set, measure on
// held-out inputs from the same distribution (docs/quantization.md has the full figures).
// Targets: output cosine >= 0.99 and top-1 agreement >= 90%.
#include <gtest/gtest.h>

#include "compiler/accuracy/accuracy.h"
#include "compiler/passes/pipeline.h"
#include "compiler/quantize/quantize.h"
#include "workloads/models/models.h"

namespace npu::compiler::accuracy {
namespace {

using quantize::Observer;

struct Evaluation {
  ir::Graph float_graph, quant_graph;
  AccuracyReport report;
};

Evaluation Evaluate(const std::string& model, Observer observer, int calib, int eval) {
  Evaluation r;
  StatusOr<ir::Graph> g = workloads::BuildModel(model);
  EXPECT_TRUE(g.ok());
  passes::PassContext ctx;
  EXPECT_TRUE(passes::RunPipeline(*g, {}, ctx).ok());
  r.float_graph = std::move(*g);
  quantize::CalibrationSet set;
  for (int i = 0; i < calib; ++i) {
    set.samples.push_back(workloads::MakeInputs(r.float_graph, quantize::kCalibrationSeed + i));
  }
  StatusOr<ir::Graph> q = quantize::Quantize(r.float_graph, set, {.observer = observer});
  EXPECT_TRUE(q.ok()) << q.status().message();
  r.quant_graph = std::move(*q);
  std::vector<std::vector<interp::HostTensor>> held_out;
  for (int i = 0; i < eval; ++i) {
    held_out.push_back(workloads::MakeInputs(r.float_graph, quantize::kEvaluationSeed + i));
  }
  StatusOr<AccuracyReport> report = CompareAccuracy(r.float_graph, r.quant_graph, held_out);
  EXPECT_TRUE(report.ok()) << report.status().message();
  r.report = std::move(*report);
  return r;
}

TEST(ModelAccuracy, SmallModelsMeetTheTargetsWithEveryObserver) {
  for (const char* model : {"small_cnn", "mlp"}) {
    for (Observer o : {Observer::kMinMax, Observer::kPercentile, Observer::kMse}) {
      SCOPED_TRACE(std::string(model) + " " + std::string(quantize::ObserverName(o)));
      const Evaluation r = Evaluate(model, o, 16, 32);
      ASSERT_EQ(r.report.outputs.size(), 1u);
      const OutputAccuracy& out = r.report.outputs[0];
      EXPECT_GE(out.metrics.cosine, 0.999);
      EXPECT_GE(out.metrics.snr_db, 28.0);
      EXPECT_GE(*out.top1, 0.9);
      EXPECT_EQ(*out.top5, 1.0);
    }
  }
}

TEST(ModelAccuracy, PerLayerReportPairsEveryQuantisedTensor) {
  const Evaluation r = Evaluate("small_cnn", Observer::kPercentile, 4, 2);
  // One entry for the input and one per quantised node, in graph order, named as the float
  // tensors they stand for.
  ASSERT_EQ(r.report.layers.size(), 1 + r.quant_graph.nodes().size());
  EXPECT_EQ(r.report.layers[0].tensor, "input");
  EXPECT_EQ(r.report.layers[0].op, "input");
  EXPECT_EQ(r.report.layers[1].tensor, "conv1");
  EXPECT_EQ(r.report.layers.back().tensor, "fc");
  for (const LayerAccuracy& l : r.report.layers) {
    EXPECT_GE(l.metrics.cosine, 0.99) << l.tensor;
    EXPECT_NE(r.float_graph.FindTensor(l.tensor), nullptr) << l.tensor;
  }
  EXPECT_GT(r.report.layers[0].metrics.snr_db, 40.0);  // the input's own rounding: ~48 dB
}

TEST(ModelAccuracy, ResNet18) {
  const Evaluation r = Evaluate("resnet18", Observer::kPercentile, 8, 12);
  const OutputAccuracy& out = r.report.outputs[0];
  EXPECT_GE(out.metrics.cosine, 0.999);
  EXPECT_GE(out.metrics.snr_db, 35.0);
  EXPECT_GE(*out.top1, 0.9);
  EXPECT_EQ(*out.top5, 1.0);
}

TEST(ModelAccuracy, MobileNetV2) {
  const Evaluation r = Evaluate("mobilenet_v2", Observer::kPercentile, 16, 32);
  const OutputAccuracy& out = r.report.outputs[0];
  EXPECT_GE(out.metrics.cosine, 0.999);
  EXPECT_GE(out.metrics.snr_db, 29.0);
  // The synthetic model's top-1 is a near tie for about a sixth of the inputs (its top two
  // logits differ by less than one int8 output step); on the others int8 agrees with float.
  EXPECT_GE(*out.top1_resolvable, 0.9);
  EXPECT_GE(*out.top1, 0.8);
  EXPECT_EQ(*out.top5, 1.0);
}

}  // namespace
}  // namespace npu::compiler::accuracy
