// Every committed torch model, imported and run by the float reference interpreter, gives
// torch's output for the committed input (tolerance: |a - b| <= 1e-5 + 1e-4 |b|).
#include <gtest/gtest.h>

#include <cmath>

#include "compiler/interp/interpreter.h"
#include "compiler/onnx/onnx_import.h"
#include "tests/onnx/test_data.h"

namespace npu::compiler {
namespace {

constexpr double kAbsTolerance = 1e-5;
constexpr double kRelTolerance = 1e-4;

class TorchParity : public ::testing::TestWithParam<onnx_test::ManifestEntry> {};

TEST_P(TorchParity, OutputEqualsTorch) {
  const onnx_test::ManifestEntry& e = GetParam();
  StatusOr<onnx_test::NpyArray> input = onnx_test::ReadNpy(onnx_test::DataPath(e.input));
  StatusOr<onnx_test::NpyArray> expected = onnx_test::ReadNpy(onnx_test::DataPath(e.output));
  ASSERT_TRUE(input.ok()) << input.status().message();
  ASSERT_TRUE(expected.ok()) << expected.status().message();

  // The committed input's shape also fixes the dynamic-batch models' batch.
  ImportOptions options;
  options.input_shapes["input"] = input->shape;
  StatusOr<ir::Graph> g = ImportOnnxFile(onnx_test::DataPath(e.model), options);
  ASSERT_TRUE(g.ok()) << g.status().message();

  StatusOr<std::vector<interp::HostTensor>> out =
      interp::Interpret(*g, {interp::HostTensor::FromValues(input->shape, input->values)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->size(), 1u);
  const interp::HostTensor& y = (*out)[0];
  ASSERT_EQ(y.shape, ir::Shape(expected->shape.begin(), expected->shape.end()));
  std::span<const float> got = y.values<float>();
  for (size_t i = 0; i < got.size(); ++i) {
    const double want = expected->values[i];
    ASSERT_LE(std::abs(got[i] - want), kAbsTolerance + kRelTolerance * std::abs(want))
        << "element " << i << ": got " << got[i] << ", torch " << want;
  }
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
