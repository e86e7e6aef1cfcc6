// The corpus of torch exports (miniature torchvision families, a TransformerEncoder, a 1-D CNN, a
// segmentation net, each at opsets 13 and 17; tests/corpus/data/manifest.txt, or the directory in
// $NPU_CORPUS_DIR): every model imports, goes through the whole front-end pipeline, and the float
// interpreter gives torch's output for the committed input within |a - b| <= 1e-5 + 1e-4 |b|
// (the interpreter and torch sum in different orders, and LayerNorm/Erf/Resize round differently;
// nothing in these small models needs more). After the pipeline a CNN's Transposes sit only at
// its borders (reading a graph input or writing a graph output); the transformer's attention
// transposes by design and is exempt. Each case prints its max abs error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "compiler/interp/interpreter.h"
#include "compiler/onnx/onnx_import.h"
#include "compiler/passes/pipeline.h"
#include "tests/onnx/test_data.h"

namespace npu::compiler {
namespace {

constexpr double kAbsTolerance = 1e-5;
// The segmentation net's bilinear Resize: torch maps output x to (x + 0.5) * (in / out) - 0.5,
// ONNX (and the interpreter) to (x + 0.5) / (out / in) - 0.5; the coordinates differ in the last
// float bit, which an 8x upsample of logits around 10 turns into up to ~3e-5 (measured).
constexpr double kResizeAbsTolerance = 1e-4;
constexpr double kRelTolerance = 1e-4;

bool IsView(const ir::Node* n) {
  return n != nullptr && (n->kind() == ir::OpKind::kReshape || n->kind() == ir::OpKind::kFlatten ||
                          n->kind() == ir::OpKind::kSqueeze || n->kind() == ir::OpKind::kUnsqueeze);
}

// Transposes neither reading a graph input nor writing a graph output, directly or through view
// ops (a 1-D net's input is unsqueezed to [N,C,1,L] first).
int InnerTransposes(const ir::Graph& g) {
  int n = 0;
  for (const ir::Node* t : g.NodesOfKind(ir::OpKind::kTranspose)) {
    const ir::Tensor* src = t->input(0);
    while (IsView(src->producer())) src = src->producer()->input(0);
    const ir::Tensor* dst = t->output(0);
    while (dst->users().size() == 1 && IsView(dst->users()[0])) dst = dst->users()[0]->output(0);
    const auto& in = g.inputs();
    const bool border = std::find(in.begin(), in.end(), src) != in.end() || g.IsGraphOutput(dst);
    n += border ? 0 : 1;
  }
  return n;
}

class CorpusParity : public ::testing::TestWithParam<onnx_test::ManifestEntry> {};

TEST_P(CorpusParity, MatchesTorchAfterTheFrontEndPipeline) {
  const onnx_test::ManifestEntry& e = GetParam();
  const std::string dir = onnx_test::CorpusDir() + "/";
  StatusOr<onnx_test::NpyArray> input = onnx_test::ReadNpy(dir + e.input);
  StatusOr<onnx_test::NpyArray> expected = onnx_test::ReadNpy(dir + e.output);
  ASSERT_TRUE(input.ok()) << input.status().message();
  ASSERT_TRUE(expected.ok()) << expected.status().message();
  StatusOr<ir::Graph> g = ImportOnnxFile(dir + e.model);
  ASSERT_TRUE(g.ok()) << g.status().message();
  ASSERT_EQ(g->inputs().size(), 1u);
  passes::PassContext ctx;
  const Status s = passes::RunPipeline(*g, {}, ctx);
  ASSERT_TRUE(s.ok()) << s.message();

  StatusOr<std::vector<interp::HostTensor>> out =
      interp::Interpret(*g, {interp::HostTensor::FromValues(input->shape, input->values)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->size(), 1u);
  const interp::HostTensor& y = (*out)[0];
  ASSERT_EQ(y.shape, ir::Shape(expected->shape.begin(), expected->shape.end()));
  const std::span<const float> got = y.values<float>();
  double max_abs = 0;
  size_t bad = 0;
  const double abs_tolerance =
      e.model.find("lraspp") != std::string::npos ? kResizeAbsTolerance : kAbsTolerance;
  for (size_t i = 0; i < got.size(); ++i) {
    const double want = expected->values[i], err = std::abs(got[i] - want);
    max_abs = std::max(max_abs, err);
    bad += err > abs_tolerance + kRelTolerance * std::abs(want);
  }
  std::printf("corpus %s: max abs error %.3g over %zu values\n", e.model.c_str(), max_abs,
              got.size());
  EXPECT_EQ(bad, 0u) << "max abs error " << max_abs;
  RecordProperty("max_abs_error", std::to_string(max_abs));

  if (e.model.find("transformer") == std::string::npos) {
    EXPECT_EQ(InnerTransposes(*g), 0) << "transposes inside the network";
  }
}

std::string ModelName(const ::testing::TestParamInfo<onnx_test::ManifestEntry>& info) {
  std::string name = info.param.model.substr(0, info.param.model.size() - 5);  // no ".onnx"
  for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusParity);  // no corpus committed yet
INSTANTIATE_TEST_SUITE_P(Corpus, CorpusParity, ::testing::ValuesIn(onnx_test::ReadCorpusManifest()),
                         ModelName);

}  // namespace
}  // namespace npu::compiler
