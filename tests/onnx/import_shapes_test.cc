// Symbolic and missing dims: the batch default, ImportOptions::input_shapes, symbols shared by
// inputs and outputs, and the errors when no static shape is known.
#include <gtest/gtest.h>

#include "compiler/onnx/onnx_import.h"
#include "tests/onnx/model_builder.h"
#include "tests/onnx/test_data.h"

namespace npu::compiler {
namespace {

using onnx_test::ModelBuilder;

// x[dims] -> Relu -> y[out_dims]
ModelBuilder ReluModel(const std::vector<std::string>& dims,
                       const std::vector<std::string>& out_dims) {
  ModelBuilder m;
  m.Input("x", dims);
  m.Node("Relu", {"x"}, {"y"}, "relu");
  m.Output("y", out_dims);
  return m;
}

TEST(OnnxImportShapes, SymbolicBatchDefaultsToOneAndFlowsToOutputs) {
  StatusOr<ir::Graph> g = ImportOnnxFile(onnx_test::DataPath("dynamic_batch.op13.onnx"));
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->inputs()[0]->shape(), (ir::Shape{1, 3, 8, 8}));
  EXPECT_EQ(g->outputs()[0]->shape(), (ir::Shape{1, 3}));  // the output's dim is 'batch' too
}

TEST(OnnxImportShapes, BatchOptionSetsTheSymbolicBatch) {
  ImportOptions options;
  options.batch = 4;
  StatusOr<ir::Graph> g = ImportOnnxFile(onnx_test::DataPath("dynamic_batch.op13.onnx"), options);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->inputs()[0]->shape(), (ir::Shape{4, 3, 8, 8}));
  EXPECT_EQ(g->outputs()[0]->shape(), (ir::Shape{4, 3}));
}

TEST(OnnxImportShapes, InputShapesFixEveryDynamicDim) {
  ImportOptions options;
  options.input_shapes["x"] = {2, 3, 32, 24};
  StatusOr<ir::Graph> g =
      ImportOnnxBytes(ReluModel({"N", "3", "H", "W"}, {"N", "3", "H", "W"}).Bytes(), options);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->inputs()[0]->shape(), (ir::Shape{2, 3, 32, 24}));
  EXPECT_EQ(g->outputs()[0]->shape(), (ir::Shape{2, 3, 32, 24}));
}

TEST(OnnxImportShapes, OutputDimsWithUnboundSymbolsAreLeftForShapeInference) {
  StatusOr<ir::Graph> g =
      ImportOnnxBytes(ReluModel({"1", "3", "8", "8"}, {"1", "c", "8", "8"}).Bytes());
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_TRUE(g->outputs()[0]->shape().empty());
  EXPECT_EQ(g->outputs()[0]->dtype(), ir::DType::kFloat32);
}

TEST(OnnxImportShapes, DynamicDimWithoutStaticShapeNamesInputAndDims) {
  StatusOr<ir::Graph> g = ImportOnnxBytes(ReluModel({"N", "3", "H", "?"}, {}).Bytes());
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().kind(), ErrorKind::kInvalidArgument);
  const std::string m = g.status().message();
  EXPECT_NE(m.find("graph input 'x'"), std::string::npos) << m;
  EXPECT_NE(m.find("dim 2 ('H')"), std::string::npos) << m;
  EXPECT_NE(m.find("dim 3 (no size given)"), std::string::npos) << m;
  EXPECT_NE(m.find("input_shapes"), std::string::npos) << m;
}

TEST(OnnxImportShapes, BatchZeroTurnsTheDefaultOff) {
  ImportOptions options;
  options.batch = 0;
  StatusOr<ir::Graph> g = ImportOnnxBytes(ReluModel({"N", "3", "8", "8"}, {}).Bytes(), options);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("dim 0 ('N')"), std::string::npos) << g.status().message();
}

TEST(OnnxImportShapes, GivenShapeMustAgreeWithStaticDims) {
  ImportOptions options;
  options.input_shapes["x"] = {1, 4, 8, 8};
  StatusOr<ir::Graph> g = ImportOnnxBytes(ReluModel({"N", "3", "8", "8"}, {}).Bytes(), options);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("fixes dim 1 to 3"), std::string::npos)
      << g.status().message();

  options.input_shapes["x"] = {1, 3, 8};
  g = ImportOnnxBytes(ReluModel({"N", "3", "8", "8"}, {}).Bytes(), options);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("rank 3"), std::string::npos) << g.status().message();
}

TEST(OnnxImportShapes, InputShapesNamingNoInputIsAnError) {
  ImportOptions options;
  options.input_shapes["images"] = {1, 3, 8, 8};
  StatusOr<ir::Graph> g = ImportOnnxBytes(ReluModel({"1", "3", "8", "8"}, {}).Bytes(), options);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("'images', which is not a graph input; the inputs are: x"),
            std::string::npos)
      << g.status().message();
}

TEST(OnnxImportShapes, ASymbolSharedByTwoInputsTakesOneSize) {
  ModelBuilder m;
  m.Input("a", {"N", "4"});
  m.Input("b", {"N", "4"});
  m.Node("Add", {"a", "b"}, {"y"});
  m.Output("y", {"N", "4"});
  ImportOptions options;
  options.input_shapes["a"] = {3, 4};
  StatusOr<ir::Graph> g = ImportOnnxBytes(m.Bytes(), options);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->inputs()[1]->shape(), (ir::Shape{3, 4}));  // 'N' bound by input a
  EXPECT_EQ(g->outputs()[0]->shape(), (ir::Shape{3, 4}));

  options.input_shapes["b"] = {5, 4};
  g = ImportOnnxBytes(m.Bytes(), options);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("symbolic dim 'N' is 3"), std::string::npos)
      << g.status().message();
}

TEST(OnnxImportShapes, ValueInfoTypesIntermediateTensors) {
  ModelBuilder m = onnx_test::ConvReluModel();
  m.ValueInfo("c", {"1", "4", "8", "8"});
  StatusOr<ir::Graph> g = ImportOnnxBytes(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status().message();
  const ir::Tensor* c = g->FindTensor("c");
  EXPECT_EQ(c->dtype(), ir::DType::kFloat32);
  EXPECT_EQ(c->shape(), (ir::Shape{1, 4, 8, 8}));
}

}  // namespace
}  // namespace npu::compiler
