// Every pass on every built-in model keeps the interpreter's outputs: passes run one after the
// other (each on the previous one's result, as in the pipeline), and the outputs after each must
// equal those before it within 1e-5 of the output's scale (max |after - before| / max |before|:
// relative to the scale so that near-zero logits do not dominate). The CNNs run at 64x64 here;
// resnet18 and mobilenet_v2 also go through the whole pipeline once at 224x224.
#include <gtest/gtest.h>

#include "tests/passes/pass_test_util.h"
#include "workloads/models/models.h"

namespace npu::compiler::passes::testing {
namespace {

struct ModelCase {
  const char* name;
  int64_t image_size;
};
void PrintTo(const ModelCase& c, std::ostream* os) { *os << c.name << "@" << c.image_size; }

class EveryPass : public ::testing::TestWithParam<ModelCase> {};

TEST_P(EveryPass, KeepsTheOutputs) {
  StatusOr<ir::Graph> g =
      workloads::BuildModel(GetParam().name, {.batch = 1, .image_size = GetParam().image_size});
  ASSERT_TRUE(g.ok()) << g.status().message();
  const std::vector<HostTensor> inputs = workloads::MakeInputs(*g, 3);
  const std::vector<HostTensor> reference = Interpreted(*g, inputs);
  std::vector<HostTensor> previous = reference;
  for (const PassInfo& pass : ListPasses()) {
    PassContext ctx;
    const Status s = RunPass(pass, *g, ctx);
    ASSERT_TRUE(s.ok()) << s.message();
    const std::vector<HostTensor> now = Interpreted(*g, inputs);
    ASSERT_EQ(now.size(), previous.size());
    for (size_t i = 0; i < now.size(); ++i) {
      EXPECT_LE(interp::MaxRelativeError(now[i], previous[i]), 1e-5) << "after " << pass.name;
      EXPECT_LE(interp::MaxRelativeError(now[i], reference[i]), 1e-5) << "after " << pass.name;
    }
    previous = now;
  }
}

INSTANTIATE_TEST_SUITE_P(Models, EveryPass,
                         ::testing::Values(ModelCase{"resnet18", 64}, ModelCase{"mobilenet_v2", 64},
                                           ModelCase{"small_cnn", 32}, ModelCase{"mlp", 0}),
                         [](const auto& info) { return std::string(info.param.name); });

class FullSize : public ::testing::TestWithParam<const char*> {};

TEST_P(FullSize, PipelineKeepsTheOutputs) {
  StatusOr<ir::Graph> g = workloads::BuildModel(GetParam());
  ASSERT_TRUE(g.ok()) << g.status().message();
  const std::vector<HostTensor> inputs = workloads::MakeInputs(*g, 1);
  const std::vector<HostTensor> before = Interpreted(*g, inputs);
  PassContext ctx;
  const Status s = RunPipeline(*g, {}, ctx);
  ASSERT_TRUE(s.ok()) << s.message();
  const std::vector<HostTensor> after = Interpreted(*g, inputs);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].shape, (ir::Shape{1, 1000}));
  EXPECT_LE(interp::MaxRelativeError(after[0], before[0]), 1e-5);
  // Only the input's transpose is left; every conv is fused, every BN folded.
  EXPECT_EQ(CountKind(*g, ir::OpKind::kTranspose), 1u);
  EXPECT_EQ(CountKind(*g, ir::OpKind::kBatchNormalization), 0u);
  EXPECT_EQ(CountKind(*g, ir::OpKind::kConv), 0u);
}

INSTANTIATE_TEST_SUITE_P(Models, FullSize, ::testing::Values("resnet18", "mobilenet_v2"));

}  // namespace
}  // namespace npu::compiler::passes::testing
