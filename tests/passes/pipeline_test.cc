// The pipeline: the pass list, disabling and dumping by name, errors for unknown names, and the
// verifier catching a pass that breaks the graph.
#include "compiler/passes/pipeline.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/passes/pass_test_util.h"

namespace npu::compiler::passes::testing {
namespace {

// x -> conv -> bn -> relu = y, untyped (as an importer hands it over).
ir::Graph ConvBnRelu() {
  ir::Graph g("g");
  ir::Tensor* x = g.AddInput("x", ir::DType::kFloat32, {1, 3, 6, 6}, ir::Layout::kNCHW);
  ir::Node* conv = AddConv(g, "conv", x, 3, 4, 1);
  ir::Tensor* bn = AddBatchNorm(g, "bn", conv->output(), 4, 2)->output();
  g.AddOutput(g.AddNode(ir::OpKind::kRelu, "relu", {bn}, {"y"})->output());
  return g;
}

TEST(Pipeline, ListsUniquelyNamedPassesStartingWithShapeInference) {
  std::set<std::string_view> names;
  for (const PassInfo& p : ListPasses()) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    EXPECT_FALSE(p.summary.empty());
  }
  EXPECT_EQ(ListPasses().front().name, "infer-shapes");
  EXPECT_EQ(ListPasses().back().name, "convert-layout-nhwc");
  const StatusOr<PassInfo> missing = FindPass("fold-everything");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.status().message().find("fold-batchnorm"), std::string::npos);
}

TEST(Pipeline, RunsEverythingAndDumpsAfterANamedPass) {
  ir::Graph g = ConvBnRelu();
  PassContext ctx;
  const Status s = RunPipeline(g, {.disabled = {}, .dump_after = "fold-batchnorm"}, ctx);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_NE(ctx.dump.find("= conv("), std::string::npos) << ctx.dump;  // before fusion
  EXPECT_EQ(ctx.dump.find("batch_normalization"), std::string::npos) << ctx.dump;
  EXPECT_EQ(CountKind(g, ir::OpKind::kFusedConv), 1u);
  EXPECT_EQ(g.nodes().size(), 3u);  // transpose in, fused conv, transpose out
}

TEST(Pipeline, DisabledPassesDoNotRun) {
  ir::Graph g = ConvBnRelu();
  PassContext ctx;
  const Status s =
      RunPipeline(g,
                  {.disabled = {"fold-batchnorm", "batchnorm-to-conv", "convert-layout-nhwc"},
                   .dump_after = ""},
                  ctx);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(ctx.Stat("fold-batchnorm.folded"), 0);
  EXPECT_EQ(CountKind(g, ir::OpKind::kBatchNormalization), 1u);
  EXPECT_EQ(CountKind(g, ir::OpKind::kTranspose), 0u);
}

TEST(Pipeline, RejectsUnknownAndContradictoryNames) {
  ir::Graph g = ConvBnRelu();
  PassContext ctx;
  EXPECT_EQ(RunPipeline(g, {.disabled = {"nope"}, .dump_after = ""}, ctx).kind(),
            ErrorKind::kNotFound);
  EXPECT_EQ(RunPipeline(g, {.disabled = {}, .dump_after = "nope"}, ctx).kind(),
            ErrorKind::kNotFound);
  EXPECT_EQ(
      RunPipeline(g, {.disabled = {"fold-batchnorm"}, .dump_after = "fold-batchnorm"}, ctx).kind(),
      ErrorKind::kInvalidArgument);
  const Status untyped = RunPipeline(g, {.disabled = {"infer-shapes"}, .dump_after = ""}, ctx);
  ASSERT_FALSE(untyped.ok());
  EXPECT_NE(untyped.message().find("infer-shapes is disabled"), std::string::npos);
}

Status BreakShapes(ir::Graph& g, PassContext&) {
  g.FindTensor("y")->set_shape({7});
  return Status::Ok();
}

TEST(Pipeline, VerifierBlamesThePassThatBrokeTheGraph) {
  ir::Graph g = ConvBnRelu();
  Infer(g);
  PassContext ctx;
  const Status s = RunPass({"break-shapes", "test", BreakShapes}, g, ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.kind(), ErrorKind::kInternal);
  EXPECT_NE(s.message().find("pass 'break-shapes' left an invalid graph"), std::string::npos);
  EXPECT_NE(s.message().find("node 'relu'"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace npu::compiler::passes::testing
