// Every committed torch model, imported and run by the float reference interpreter, gives
// torch's output for the committed input (tolerance: |a - b| <= 1e-5 + 1e-4 |b|): as imported,
// after the whole front-end pipeline (shape inference, constant folding, BN folding, fusion,
// NHWC layout), and after an export/import round trip. Import's layout tags agree with shape
// inference's.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "compiler/interp/interpreter.h"
#include "compiler/onnx/onnx_export.h"
#include "compiler/onnx/onnx_import.h"
#include "compiler/passes/passes.h"
#include "compiler/passes/pipeline.h"
#include "tests/onnx/test_data.h"

namespace npu::compiler {
namespace {

constexpr double kAbsTolerance = 1e-5;
constexpr double kRelTolerance = 1e-4;

class TorchParity : public ::testing::TestWithParam<onnx_test::ManifestEntry> {
 protected:
  void SetUp() override {
    const onnx_test::ManifestEntry& e = GetParam();
    StatusOr<onnx_test::NpyArray> input = onnx_test::ReadNpy(onnx_test::DataPath(e.input));
    StatusOr<onnx_test::NpyArray> expected = onnx_test::ReadNpy(onnx_test::DataPath(e.output));
    ASSERT_TRUE(input.ok()) << input.status().message();
    ASSERT_TRUE(expected.ok()) << expected.status().message();
    input_ = *input;
    expected_ = *expected;
    // The committed input's shape also fixes the dynamic-batch models' batch.
    ImportOptions options;
    options.input_shapes["input"] = input_.shape;
    StatusOr<ir::Graph> g = ImportOnnxFile(onnx_test::DataPath(e.model), options);
    ASSERT_TRUE(g.ok()) << g.status().message();
    graph_ = std::move(g).value();
  }

  // Runs `g` on the committed input and compares with torch's output.
  void ExpectTorchOutput(const ir::Graph& g) {
    StatusOr<std::vector<interp::HostTensor>> out =
        interp::Interpret(g, {interp::HostTensor::FromValues(input_.shape, input_.values)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    ASSERT_EQ(out->size(), 1u);
    const interp::HostTensor& y = (*out)[0];
    ASSERT_EQ(y.shape, ir::Shape(expected_.shape.begin(), expected_.shape.end()));
    std::span<const float> got = y.values<float>();
    for (size_t i = 0; i < got.size(); ++i) {
      const double want = expected_.values[i];
      ASSERT_LE(std::abs(got[i] - want), kAbsTolerance + kRelTolerance * std::abs(want))
          << "element " << i << ": got " << got[i] << ", torch " << want;
    }
  }

  onnx_test::NpyArray input_, expected_;
  ir::Graph graph_;
};

TEST_P(TorchParity, AsImported) { ExpectTorchOutput(graph_); }

TEST_P(TorchParity, AfterTheFrontEndPipeline) {
  passes::PassContext ctx;
  Status s = passes::RunPipeline(graph_, {}, ctx);
  ASSERT_TRUE(s.ok()) << s.message();
  ExpectTorchOutput(graph_);
}

TEST_P(TorchParity, ImportLayoutsAgreeWithShapeInference) {
  // Import tags layouts itself (shapes are not inferred yet); the passes' rules must agree.
  std::map<std::string, ir::Layout> imported;
  for (const ir::Tensor* t : graph_.tensors()) imported[t->name()] = t->layout();
  passes::PassContext ctx;
  Status s = passes::InferShapes(graph_, ctx);
  ASSERT_TRUE(s.ok()) << s.message();
  for (const ir::Tensor* t : graph_.tensors()) {
    EXPECT_EQ(ir::LayoutName(t->layout()), ir::LayoutName(imported[t->name()])) << t->name();
  }
}

TEST_P(TorchParity, AfterExportAndReimport) {
  StatusOr<std::string> bytes = ExportOnnx(graph_);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  StatusOr<ir::Graph> again = ImportOnnxBytes(*bytes);
  ASSERT_TRUE(again.ok()) << again.status().message();
  ExpectTorchOutput(*again);
}

std::string ModelName(const ::testing::TestParamInfo<onnx_test::ManifestEntry>& info) {
  std::string name = info.param.model.substr(0, info.param.model.size() - 5);  // no ".onnx"
  for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(CommittedModels, TorchParity,
                         ::testing::ValuesIn(onnx_test::ReadManifest()), ModelName);

}  // namespace
}  // namespace npu::compiler
