// A batch of inferences in one program (compiler/network/batch.h): the replicated graph runs bit
// exactly, equals the batch-1 graph on each image, needs no CPU layer (the per-image slices of
// the input are views, the batch concatenation of the outputs is placement); and the pipeline
// takes a model of fixed batch, fixes a symbolic batch, and names the node when a hard-coded
// batch cannot be unrolled.
#include "compiler/network/batch.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "compiler/network/model_pipeline.h"
#include "compiler/qinterp/qinterp.h"
#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"
#include "tests/onnx/model_builder.h"
#include "tests/onnx/test_data.h"

namespace npu::compiler::testing {
namespace {

ir::Graph SmallNet() {
  QuantGraphBuilder b("small", 3);
  ir::Tensor* x = b.Input("x", 9, 7, 3);
  x = b.Conv(x, "conv", {.out_c = 6, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}, .activation = "relu"});
  x = b.MaxPool(x, "pool", {});
  return b.Finish({b.Gemm(b.Flatten(x, "flat"), "fc", 5)});
}

TEST(Batch, ReplicasAreBitExactAndEqualOneImageAtATime) {
  const ir::Graph one = SmallNet();
  StatusOr<ir::Graph> three = ReplicateBatch(one, 3);
  ASSERT_TRUE(three.ok()) << three.status().message();
  EXPECT_EQ(three->inputs()[0]->shape(), (ir::Shape{3, 9, 7, 3}));
  EXPECT_EQ(three->outputs()[0]->shape(), (ir::Shape{3, 5}));
  for (const NamedConfig& c : SweepConfigs()) {
    SCOPED_TRACE(c.name);
    const CompiledModel m = ExpectBitExact(*three, c.config, 1);
    for (const ModelLayer& l : m.layers) EXPECT_FALSE(l.on_cpu) << l.name;
    EXPECT_EQ(m.network.concats_placed, 1);
  }
  const std::vector<int8_t> images = RandomInputs(*three, 5)[0];
  StatusOr<std::vector<std::vector<int8_t>>> all = qinterp::InterpretQuantized(*three, {images});
  ASSERT_TRUE(all.ok());
  const size_t per = images.size() / 3;
  for (size_t i = 0; i < 3; ++i) {
    const std::vector<int8_t> image(images.begin() + i * per, images.begin() + (i + 1) * per);
    StatusOr<std::vector<std::vector<int8_t>>> single = qinterp::InterpretQuantized(one, {image});
    ASSERT_TRUE(single.ok());
    EXPECT_TRUE(std::equal((*single)[0].begin(), (*single)[0].end(), (*all)[0].begin() + i * 5));
  }
}

TEST(Batch, AViewOfAnImageIsAViewOfItsSlice) {
  // A signal reshaped to an image (a 1-D model's [1, W] input read as a 1 x W image): each
  // image's reshape is a view of its slice of the batch's input, not of the whole buffer, and
  // each image's wide strided kernel reads its slice with the stride folded into the channels.
  QuantGraphBuilder b("signal", 3);
  ir::Tensor* x = b.Reshape(b.VectorInput("x", 96), "image", {1, 1, 96, 1});  // NHWC
  x = b.Conv(x, "conv", {.out_c = 4, .kh = 1, .kw = 20, .stride_w = 4, .activation = "relu"});
  const ir::Graph one = b.Finish({b.Gemm(b.Flatten(x, "flat"), "fc", 3)});
  StatusOr<ir::Graph> two = ReplicateBatch(one, 2);
  ASSERT_TRUE(two.ok()) << two.status().message();
  for (const NamedConfig& c : SweepConfigs()) {
    SCOPED_TRACE(c.name);
    const CompiledModel m = ExpectBitExact(*two, c.config, 1);
    int folded = 0;
    for (const ModelLayer& l : m.layers) {
      EXPECT_FALSE(l.on_cpu) << l.name;
      folded += l.note.find("folded into the channels") != std::string::npos;
    }
    EXPECT_EQ(folded, 2);
  }
}

// Conv -> Relu -> (Flatten, or a Reshape to [batch, -1]) -> Gemm, with a fixed or symbolic batch.
std::string Model(const std::string& batch, bool hard_coded_reshape) {
  onnx_test::ModelBuilder m(13);
  m.Input("x", {batch, "3", "6", "6"});
  m.Initializer("w", {4, 3, 3, 3}, std::vector<float>(108, 0.05f));
  m.Initializer("fw", {5, 144}, std::vector<float>(720, 0.01f));
  m.Node("Conv", {"x", "w"}, {"c"}).Ints("pads", {1, 1, 1, 1});
  m.Node("Relu", {"c"}, {"r"});
  if (hard_coded_reshape) {
    m.InitializerI64("shape", {2}, {2, -1});
    m.Node("Reshape", {"r", "shape"}, {"f"}, "reshape_to_2");
  } else {
    m.Node("Flatten", {"r"}, {"f"});
  }
  m.Node("Gemm", {"f", "fw"}, {"y"}).Int("transB", 1);
  m.Output("y");
  const std::string path = ::testing::TempDir() + "batch_" + batch + ".onnx";
  std::ofstream(path, std::ios::binary) << m.Bytes();
  return path;
}

TEST(Batch, AFixedBatchIsCompiledPerInferenceAndRunThatManyTimes) {
  ModelPipelineOptions o;
  StatusOr<PreparedModel> p = PrepareModel(Model("2", false), Config({}), o);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->batch, 2);
  EXPECT_EQ(p->float_graph.inputs()[0]->shape()[0], 1);
  EXPECT_EQ(p->inputs[0].size(), 2u * 6 * 6 * 3);
  EXPECT_EQ(p->expected[0].size(), 2u * 5);
}

TEST(Batch, ASymbolicBatchTakesTheOneAskedFor) {
  ModelPipelineOptions o;
  o.batch = 3;
  StatusOr<PreparedModel> p = PrepareModel(Model("N", false), Config({}), o);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->batch, 3);
  EXPECT_EQ(p->expected[0].size(), 3u * 5);
}

TEST(Batch, AHardCodedBatchThatCannotBeUnrolledIsNamed) {
  StatusOr<PreparedModel> p = PrepareModel(Model("2", true), Config({}), {});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("batch of 2 cannot be unrolled"), std::string::npos)
      << p.status().message();
  // The Reshape to [2, -1] makes [2, 72] of one image; the Gemm after it is where shapes break.
  EXPECT_NE(p.status().message().find("node 'Gemm_3' (gemm)"), std::string::npos)
      << p.status().message();
}

}  // namespace
}  // namespace npu::compiler::testing
