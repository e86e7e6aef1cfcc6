// The quantised graph a binary carries (--with-reference, compiler/ir/graph_proto.h): read back,
// it prints and computes exactly as the graph written; damaged bytes are refused, or give a graph
// the integer reference's checker refuses or runs, never a crash.
#include "compiler/ir/graph_proto.h"

#include <gtest/gtest.h>

#include <random>

#include "compiler/ir/printer.h"
#include "compiler/network/model_pipeline.h"
#include "compiler/qinterp/check.h"
#include "compiler/qinterp/qinterp.h"
#include "hw/spec/config.h"

namespace npu::compiler {
namespace {

PreparedModel Quantised(const std::string& model) {
  ModelPipelineOptions o;
  o.calibration_samples = 1;
  StatusOr<PreparedModel> m = PrepareModel(model, spec::DefaultConfig(), o);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return *std::move(m);
}

void ExpectRoundTrip(const std::string& model) {
  const PreparedModel m = Quantised(model);
  StatusOr<ir::Graph> back = ir::ParseGraph(ir::SerializeGraph(m.quantized));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(ir::PrintGraph(*back), ir::PrintGraph(m.quantized));
  StatusOr<std::vector<std::vector<int8_t>>> out = qinterp::InterpretQuantized(*back, m.inputs);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, m.expected);
}

TEST(GraphProto, SmallCnnRoundTrips) { ExpectRoundTrip("small_cnn"); }
TEST(GraphProto, MlpRoundTrips) { ExpectRoundTrip("mlp"); }
// Softmax, layer normalisation, matrix products: tables, float and string attributes.
TEST(GraphProto, TransformerRoundTrips) {
  ExpectRoundTrip(NPU_SOURCE_DIR "/tests/corpus/data/transformer_encoder.op17.onnx");
}

TEST(GraphProto, RefusesWhatIsNotAGraph) {
  EXPECT_FALSE(ir::ParseGraph("\xff\xff\xff").ok());
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kInt8, {4}, ir::Layout::kNone);
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "r", {x}, {"y"})->output(0));
  std::string bytes = ir::SerializeGraph(g);
  const size_t op = bytes.find("relu");
  ASSERT_NE(op, std::string::npos);
  bytes[op] = 'x';  // "xelu"
  const Status s = ir::ParseGraph(bytes).status();
  EXPECT_NE(s.message().find("unknown op 'xelu'"), std::string::npos) << s.message();
}

TEST(GraphProto, FlippedBytesNeverCrashTheReference) {
  const PreparedModel m = Quantised("small_cnn");
  const std::string valid = ir::SerializeGraph(m.quantized);
  std::mt19937 rng(7);
  int parsed = 0, checked = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string bytes = valid;
    for (int f = 0; f < 1 + int(rng() % 3); ++f)
      bytes[rng() % bytes.size()] ^= char(1 << (rng() % 8));
    StatusOr<ir::Graph> g = ir::ParseGraph(bytes);
    if (!g.ok()) continue;
    ++parsed;
    if (!qinterp::CheckQuantizedGraph(*g).ok()) continue;
    ++checked;
    (void)qinterp::InterpretQuantized(*g, m.inputs);  // refused or run: never a crash
  }
  EXPECT_GT(parsed, 0);
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace npu::compiler
