// Every CNN of the corpus compiles when quantised the way `run_workload --timing-only` does (one
// seeded sample, min/max observer): a branch that sees only zeros there (regnet's squeeze-
// excitation) gets a scale so small that its bias saturates, and the bias must still leave room
// for the zero point's share the compiler folds into it (quantize::FitFoldedBias).
#include <gtest/gtest.h>

#include "compiler/network/model_pipeline.h"
#include "tests/network/network_test_util.h"
#include "tests/onnx/test_data.h"

namespace npu::compiler::testing {
namespace {

TEST(TimingOnlyCalibration, EveryCorpusModelCompiles) {
  int models = 0;
  for (const onnx_test::ManifestEntry& e : onnx_test::ReadCorpusManifest()) {
    if (e.model.find(".op17.") == std::string::npos) continue;
    SCOPED_TRACE(e.model);
    ModelPipelineOptions options;
    options.calibration_samples = 1;
    options.quantize.observer = quantize::Observer::kMinMax;
    options.compute_reference = false;
    StatusOr<PreparedModel> p =
        PrepareModel(onnx_test::CorpusDir() + "/" + e.model, Config({}), options);
    EXPECT_TRUE(p.ok()) << p.status().message();
    ++models;
  }
  EXPECT_GE(models, 15);
}

}  // namespace
}  // namespace npu::compiler::testing
