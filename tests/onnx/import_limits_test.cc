// Models the tools cannot hold are refused, as the model's fault and naming what is wrong, before
// anything is computed on them: empty tensors (a zero-size input, a slice past the end), inputs
// of more than 2^31 elements, window attributes beyond the supported range. Found crashing or
// blamed on the compiler before (issue 10).
#include <gtest/gtest.h>

#include "compiler/onnx/onnx_import.h"
#include "compiler/passes/pipeline.h"
#include "tests/onnx/model_builder.h"

namespace npu::compiler {
namespace {

using onnx_test::ModelBuilder;

// Import and the front-end pipeline; the first error's message (an InvalidArgument: the model's
// fault, never Internal).
std::string Refusal(const ModelBuilder& m) {
  StatusOr<ir::Graph> g = ImportOnnxBytes(m.Bytes());
  Status s = g.status();
  if (g.ok()) {
    passes::PassContext ctx;
    s = passes::RunPipeline(*g, {}, ctx);
  }
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.kind(), ErrorKind::kInvalidArgument) << s.message();
  return s.message();
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

ModelBuilder Relu(const std::vector<std::string>& dims) {
  ModelBuilder m;
  m.Input("x", dims);
  m.Node("Relu", {"x"}, {"y"});
  m.Output("y");
  return m;
}

TEST(OnnxImportLimits, AnInputWithADimensionOfZeroIsRefused) {
  EXPECT_HAS(Refusal(Relu({"1", "3", "0", "8"})),
             "graph input 'x' [1,3,0,8]: dimension 2 is 0; every dimension of an input must be "
             "at least 1");
}

TEST(OnnxImportLimits, AnInputOfMoreThan2To31ElementsIsRefused) {
  EXPECT_HAS(Refusal(Relu({"1", "3", "30000", "30000"})),
             "graph input 'x' [1,3,30000,30000]: more than 2^31 elements");
}

TEST(OnnxImportLimits, ASliceThatLeavesNothingIsRefused) {
  ModelBuilder m;
  m.Input("x", {"1", "3", "8", "8"});
  m.InitializerI64("s", {1}, {5});
  m.InitializerI64("e", {1}, {2});
  m.InitializerI64("a", {1}, {2});
  m.Node("Slice", {"x", "s", "e", "a"}, {"t"}, "past_the_end");
  m.Node("Relu", {"t"}, {"y"});
  m.Output("y");
  EXPECT_HAS(Refusal(m), "node 'past_the_end' (slice): output %t [1,3,0,8] is empty");
}

ModelBuilder Conv(const std::string& attribute, const std::vector<int64_t>& values,
                  const std::string& op = "Conv") {
  ModelBuilder m;
  m.Input("x", {"1", "3", "8", "8"});
  m.Initializer("w",
                op == "Conv" ? std::vector<int64_t>{4, 3, 3, 3} : std::vector<int64_t>{3, 4, 3, 3},
                std::vector<float>(108, 0.1f));
  m.Node(op, {"x", "w"}, {"y"}, "window").Ints(attribute, values);
  m.Output("y");
  return m;
}

TEST(OnnxImportLimits, WindowAttributesBeyond65536AreTheModelsFault) {
  EXPECT_HAS(Refusal(Conv("strides", {100000, 100000})),
             "node 'window' (conv): strides [100000,100000]: a value above 65536 is not supported");
  EXPECT_HAS(Refusal(Conv("pads", {70000, 0, 70000, 0})), "pads [70000,0,70000,0]");
  EXPECT_HAS(Refusal(Conv("dilations", {1, 100000})), "dilations [1,100000]");
  EXPECT_HAS(Refusal(Conv("strides", {1, 1 << 20}, "ConvTranspose")),
             "(conv_transpose): strides [1,1048576]: a value above 65536");
  ModelBuilder pool;
  pool.Input("x", {"1", "3", "8", "8"});
  pool.Node("MaxPool", {"x"}, {"y"}, "pool")
      .Ints("kernel_shape", {1, 1})
      .Ints("strides", {70000, 1});
  pool.Output("y");
  EXPECT_HAS(Refusal(pool), "node 'pool' (max_pool): strides [70000,1]");
}

}  // namespace
}  // namespace npu::compiler
