// ONNX export: round trips through import, ONNX's own checker, opset-specific forms, refusals.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <fstream>

#include "compiler/ir/printer.h"
#include "compiler/onnx/onnx_export.h"
#include "compiler/onnx/onnx_import.h"
#include "tests/onnx/onnx_checker.h"
#include "tests/onnx/test_data.h"

namespace npu::compiler {
namespace {

using ir::OpKind;

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

std::string CheckerError(const std::string& bytes) { return testing::OnnxCheckerError(bytes); }

ir::Graph ImportOrDie(const std::string& bytes) {
  StatusOr<ir::Graph> g = ImportOnnxBytes(bytes);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(g).value() : ir::Graph();
}

TEST(OnnxExport, EveryCommittedModelRoundTripsAndPassesTheChecker) {
  for (const onnx_test::ManifestEntry& e : onnx_test::ReadManifest()) {
    StatusOr<ir::Graph> g = ImportOnnxFile(onnx_test::DataPath(e.model));
    ASSERT_TRUE(g.ok()) << g.status().message();
    for (int64_t opset : {13, 17}) {
      SCOPED_TRACE(fmt::format("{} at opset {}", e.model, opset));
      StatusOr<std::string> bytes = ExportOnnx(*g, opset);
      ASSERT_TRUE(bytes.ok()) << bytes.status().message();
      EXPECT_EQ(CheckerError(*bytes), "");
      EXPECT_EQ(ir::PrintGraph(ImportOrDie(*bytes)), ir::PrintGraph(*g));
    }
  }
}

TEST(OnnxExport, Opset11RoundTripsWhereItCanExpressTheGraph) {
  for (const char* file : {"small_cnn.op13.onnx", "dw_separable.op13.onnx", "view_chain.op17.onnx",
                           "dynamic_batch.op13.onnx"}) {
    SCOPED_TRACE(file);
    StatusOr<ir::Graph> g = ImportOnnxFile(onnx_test::DataPath(file));
    ASSERT_TRUE(g.ok()) << g.status().message();
    StatusOr<std::string> bytes = ExportOnnx(*g, 11);
    ASSERT_TRUE(bytes.ok()) << bytes.status().message();
    EXPECT_EQ(CheckerError(*bytes), "");
    EXPECT_EQ(ir::PrintGraph(ImportOrDie(*bytes)), ir::PrintGraph(*g));
  }
}

TEST(OnnxExport, Opset11SoftmaxNeedsAKnownLastAxis) {
  StatusOr<ir::Graph> g = ImportOnnxFile(onnx_test::DataPath("mlp.op13.onnx"));
  ASSERT_TRUE(g.ok()) << g.status().message();
  StatusOr<std::string> bytes = ExportOnnx(*g, 11);  // the softmax input's shape is not inferred
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().kind(), ErrorKind::kFailedPrecondition);
  EXPECT_HAS(bytes.status().message(), "node '/Softmax' (softmax): opset 11 Softmax");
}

TEST(OnnxExport, Opset11RefusesPerChannelQuantization) {
  StatusOr<ir::Graph> g = ImportOnnxFile(onnx_test::DataPath("qdq_cnn.op13.onnx"));
  ASSERT_TRUE(g.ok()) << g.status().message();
  StatusOr<std::string> bytes = ExportOnnx(*g, 11);
  ASSERT_FALSE(bytes.ok());
  EXPECT_HAS(bytes.status().message(),
             "node '/QuantizeLinear_1' (quantize_linear): per-axis quantisation needs opset 13");
}

// x[1,2,4,4] NCHW -> clip {0, 6} -> unsqueeze {axes=[0]} -> y, with every type known.
ir::Graph ClipUnsqueezeGraph() {
  ir::Graph g("clip_unsqueeze");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 2, 4, 4}, ir::Layout::kNCHW);
  ir::Attributes clip_attrs;
  clip_attrs.Set("min", 0.f);
  clip_attrs.Set("max", 6.f);
  ir::Node* clip = g.AddNode(OpKind::kClip, "relu6", {x}, {"c"}, clip_attrs);
  clip->output(0)->set_dtype(ir::DType::kFloat32);
  clip->output(0)->set_shape({1, 2, 4, 4});
  clip->output(0)->set_layout(ir::Layout::kNCHW);
  ir::Attributes axes;
  axes.Set("axes", std::vector<int64_t>{0});
  ir::Node* unsqueeze = g.AddNode(OpKind::kUnsqueeze, "unsqueeze", {clip->output(0)}, {"y"}, axes);
  unsqueeze->output(0)->set_dtype(ir::DType::kFloat32);
  unsqueeze->output(0)->set_shape({1, 1, 2, 4, 4});
  g.AddOutput(unsqueeze->output(0));
  return g;
}

TEST(OnnxExport, AttributesGoBackToInputsAsTheOpsetRequires) {
  const ir::Graph g = ClipUnsqueezeGraph();
  for (int64_t opset : {11, 13}) {
    SCOPED_TRACE(opset);
    StatusOr<std::string> bytes = ExportOnnx(g, opset);
    ASSERT_TRUE(bytes.ok()) << bytes.status().message();
    EXPECT_EQ(CheckerError(*bytes), "");
    ::onnx::ModelProto model;
    ASSERT_TRUE(model.ParseFromString(*bytes));
    const ::onnx::NodeProto& clip = model.graph().node(0);
    ASSERT_EQ(clip.input_size(), 3);  // Clip takes its bounds as inputs from opset 11
    EXPECT_EQ(clip.attribute_size(), 0);
    const ::onnx::NodeProto& unsqueeze = model.graph().node(1);
    EXPECT_EQ(unsqueeze.input_size(), opset >= 13 ? 2 : 1);
    EXPECT_EQ(unsqueeze.attribute_size(), opset >= 13 ? 0 : 1);
    // value_info carries the intermediate type, so the round trip keeps it.
    EXPECT_EQ(ir::PrintGraph(ImportOrDie(*bytes)), ir::PrintGraph(g));
  }
}

TEST(OnnxExport, RefusesWhatOnnxCannotSayInOneError) {
  ir::Graph g = ClipUnsqueezeGraph();
  g.FindTensor("c")->quant().scale = {0.1f};
  g.nodes()[0]->set_kind(OpKind::kFusedConv);
  g.FindTensor("y")->set_dtype(ir::DType::kUnknown);
  g.AddNode(OpKind::kGlobalAveragePool, "gap", {g.inputs()[0]}, {"p"});
  g.FindTensor("p")->set_layout(ir::Layout::kNHWC);
  StatusOr<std::string> bytes = ExportOnnx(g);
  ASSERT_FALSE(bytes.ok());
  const std::string m = bytes.status().message();
  EXPECT_HAS(m, "graph 'clip_unsqueeze' cannot be exported to ONNX:");
  EXPECT_HAS(m, "node 'relu6' is a fused_conv, which is no ONNX op");
  EXPECT_HAS(m,
             "node 'gap' (global_average_pool) works on NHWC %p, but ONNX's "
             "global_average_pool is NCHW");
  EXPECT_HAS(m, "%c carries quantisation parameters");
  EXPECT_HAS(m, "graph input/output %y has no element type");
}

TEST(OnnxExport, NhwcTagsOutsideLayoutAwareOpsAreWrittenAsStored) {
  ir::Graph g = ClipUnsqueezeGraph();
  g.FindTensor("c")->set_layout(ir::Layout::kNHWC);  // as if a Transpose had made it
  StatusOr<std::string> bytes = ExportOnnx(g);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  EXPECT_EQ(CheckerError(*bytes), "");
}

TEST(OnnxExport, RefusesOpsetsOutsideElevenToSeventeen) {
  StatusOr<std::string> bytes = ExportOnnx(ClipUnsqueezeGraph(), 18);
  ASSERT_FALSE(bytes.ok());
  EXPECT_HAS(bytes.status().message(), "ONNX export writes opsets 11 to 17, not 18");
}

TEST(OnnxExport, WritesAFileImportReads) {
  const std::string path = ::testing::TempDir() + "onnx_export_test.onnx";
  StatusOr<std::string> bytes = ExportOnnx(ClipUnsqueezeGraph());
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  std::ofstream(path, std::ios::binary) << *bytes;
  StatusOr<ir::Graph> g = ImportOnnxFile(path);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(ir::PrintGraph(*g), ir::PrintGraph(ClipUnsqueezeGraph()));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace npu::compiler
