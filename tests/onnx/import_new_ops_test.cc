// Import of the ops added for torch's exports, at each opset form: ReduceSum axes and Split
// sizes (attribute at 11, input at 13), Resize's roi/scales/sizes inputs (required at 11),
// ConstantOfShape's tensor attribute, defaults written out, 1-D kernels; the unsupported
// features listed in the one Unimplemented error; export round trips at 11, 13 and 17.
#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "compiler/onnx/onnx_export.h"
#include "compiler/onnx/onnx_import.h"
#include "tests/onnx/model_builder.h"

namespace npu::compiler {
namespace {

using ir::OpKind;
using onnx_test::ModelBuilder;

ir::Graph ImportOrDie(const ModelBuilder& m) {
  StatusOr<ir::Graph> g = ImportOnnxBytes(m.Bytes());
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(g).value() : ir::Graph();
}

const ir::Node* Only(const ir::Graph& g, OpKind kind) {
  const std::vector<ir::Node*> n = g.NodesOfKind(kind);
  EXPECT_EQ(n.size(), 1u) << ir::PrintGraph(g);
  return n.empty() ? nullptr : n[0];
}

// Export at `opset` and import again: the same printed graph.
void ExpectRoundTrip(const ir::Graph& g, int64_t opset) {
  StatusOr<std::string> bytes = ExportOnnx(g, opset);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  StatusOr<ir::Graph> again = ImportOnnxBytes(*bytes);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(ir::PrintGraph(*again), ir::PrintGraph(g)) << "opset " << opset;
}

ModelBuilder ReduceSplitModel(int64_t opset) {
  ModelBuilder m(opset);
  m.Input("x", {"1", "4", "6"});
  if (opset >= 13) {
    m.InitializerI64("axes", {1}, {-1});
    m.Node("ReduceSum", {"x", "axes"}, {"s"}, "sum");
    m.InitializerI64("split", {2}, {1, 3});
    m.Node("Split", {"x", "split"}, {"a", "b"}, "split").Int("axis", 1);
  } else {
    m.Node("ReduceSum", {"x"}, {"s"}, "sum").Ints("axes", {-1});
    m.Node("Split", {"x"}, {"a", "b"}, "split").Int("axis", 1).Ints("split", {1, 3});
  }
  m.Node("HardSigmoid", {"b"}, {"h"}, "hs");
  m.Output("s");
  m.Output("a");
  m.Output("h");
  return m;
}

TEST(ImportNewOps, AxesAndSplitInputsAtThirteenEqualAttributesAtEleven) {
  const ir::Graph g11 = ImportOrDie(ReduceSplitModel(11));
  const ir::Graph g13 = ImportOrDie(ReduceSplitModel(13));
  EXPECT_EQ(ir::PrintGraph(g11), ir::PrintGraph(g13));
  const ir::Node* sum = Only(g13, OpKind::kReduceSum);
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->num_inputs(), 1u);
  EXPECT_EQ(sum->attrs().GetInts("axes"), std::vector<int64_t>{-1});
  EXPECT_EQ(sum->attrs().GetInt("keepdims", 0), 1);
  const ir::Node* split = Only(g13, OpKind::kSplit);
  ASSERT_NE(split, nullptr);
  EXPECT_EQ(split->num_outputs(), 2u);
  EXPECT_EQ(split->attrs().GetInts("split"), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(Only(g13, OpKind::kHardSigmoid)->attrs().GetFloat("alpha", 0), 0.2f);
  for (int64_t opset : {11, 13, 17}) ExpectRoundTrip(g13, opset);
}

ModelBuilder ResizeModel(int64_t opset) {
  ModelBuilder m(opset);
  m.Input("x", {"1", "2", "4", "4"});
  m.Initializer("roi", {0}, {});
  m.Initializer("scales", opset >= 13 ? std::vector<int64_t>{4} : std::vector<int64_t>{0},
                opset >= 13 ? std::vector<float>{1, 1, 2, 2} : std::vector<float>{});
  m.InitializerI64("sizes", {4}, {1, 2, 8, 8});
  std::vector<std::string> in = {"x", "roi", "scales"};
  if (opset < 13) in.push_back("sizes");
  m.Node("Resize", in, {"y"}, "up").String("mode", "linear");
  m.Output("y");
  return m;
}

TEST(ImportNewOps, ResizeDropsRoiAndEmptyScales) {
  const ir::Graph g11 = ImportOrDie(ResizeModel(11));
  const ir::Node* r11 = Only(g11, OpKind::kResize);
  ASSERT_NE(r11, nullptr);
  EXPECT_EQ(r11->num_inputs(), 4u);
  EXPECT_EQ(r11->input(1), nullptr);
  EXPECT_EQ(r11->input(2), nullptr);
  EXPECT_EQ(r11->attrs().GetString("coordinate_transformation_mode", ""), "half_pixel");
  EXPECT_EQ(r11->attrs().GetString("nearest_mode", ""), "round_prefer_floor");
  const ir::Graph g13 = ImportOrDie(ResizeModel(13));
  EXPECT_EQ(Only(g13, OpKind::kResize)->num_inputs(), 3u);
  for (int64_t opset : {11, 13, 17}) {
    ExpectRoundTrip(g11, opset);
    ExpectRoundTrip(g13, opset);
  }
}

TEST(ImportNewOps, ConstantOfShapeValueCastAndOneDimensionalConv) {
  ModelBuilder m(13);
  m.Input("x", {"1", "3", "16"});
  m.Initializer("w", {4, 3, 3}, std::vector<float>(36, 0.5f));
  m.Node("Conv", {"x", "w"}, {"c"}, "conv").Ints("pads", {1, 1});
  m.InitializerI64("shape", {1}, {2});
  ::onnx::TensorProto seven;
  seven.set_data_type(::onnx::TensorProto::INT64);
  seven.add_dims(1);
  seven.add_int64_data(7);
  m.Node("ConstantOfShape", {"shape"}, {"k"}, "fill").Tensor("value", seven);
  m.Node("Cast", {"k"}, {"f"}, "cast").Int("to", ::onnx::TensorProto::FLOAT);
  m.Output("c");
  m.Output("f");
  const ir::Graph g = ImportOrDie(m);
  EXPECT_EQ(Only(g, OpKind::kConv)->attrs().GetInts("kernel_shape"), std::vector<int64_t>{3});
  EXPECT_EQ(Only(g, OpKind::kConstantOfShape)->attrs().GetInt("value", 0), 7);
  ExpectRoundTrip(g, 13);
}

TEST(ImportNewOps, UnsupportedFeaturesAreListedTogether) {
  ModelBuilder m(13);
  m.Input("x", {"1", "2", "4", "4"});
  m.Input("e", {});
  m.Node("Pow", {"x", "e"}, {"p"}, "pow");
  m.Initializer("scales", {4}, {1, 1, 2, 2});
  m.Node("Resize", {"p", "", "scales"}, {"r"}, "cubic").String("mode", "cubic");
  m.Initializer("g", {4}, {1, 1, 1, 1});
  m.Node("LayerNormalization", {"r", "g"}, {"n"}, "ln");
  m.Node("Cast", {"n"}, {"y"}, "cast").Int("to", ::onnx::TensorProto::BOOL);
  m.Output("y", {}, ::onnx::TensorProto::BOOL);
  StatusOr<ir::Graph> g = ImportOnnxBytes(m.Bytes());
  ASSERT_FALSE(g.ok());
  const std::string e = g.status().message();
  EXPECT_NE(e.find("4 unsupported nodes"), std::string::npos) << e;
  EXPECT_NE(e.find("exponent 'e' is computed"), std::string::npos) << e;
  EXPECT_NE(e.find("mode 'cubic'"), std::string::npos) << e;
  EXPECT_NE(e.find("LayerNormalization is an opset-17 op"), std::string::npos) << e;
  EXPECT_NE(e.find("cast to ONNX type 9"), std::string::npos) << e;
}

TEST(ImportNewOps, ChannelShuffleIsNoOnnxOp) {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 4, 2, 2}, ir::Layout::kNCHW);
  ir::Attributes a;
  a.Set("group", int64_t{2});
  ir::Node* n = g.AddNode(OpKind::kChannelShuffle, "shuffle", {x}, {"y"}, a);
  n->output(0)->set_dtype(ir::DType::kFloat32);
  g.AddOutput(n->output(0));
  StatusOr<std::string> bytes = ExportOnnx(g, 13);
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().message().find("channel_shuffle, which is no ONNX op"),
            std::string::npos);
}

}  // namespace
}  // namespace npu::compiler
