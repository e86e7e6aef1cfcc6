// The built-in models: structure as torchvision defines it (MAC counts, op census), the
// registry, determinism, and batch-norm statistics that are not the identity.
#include "workloads/models/models.h"

#include <gtest/gtest.h>

#include <cmath>

#include "compiler/passes/graph_stats.h"

namespace npu::workloads {
namespace {

namespace ir = compiler::ir;

ir::Graph Build(std::string_view name, const ModelOptions& options = {}) {
  StatusOr<ir::Graph> g = BuildModel(name, options);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(*g) : ir::Graph();
}

TEST(ResNet18, MacsAndOpsAsTorchvision) {
  const ir::Graph g = Build("resnet18");
  // conv1 118,013,952 + layer1 4 x 115,605,504 + layers 2-4 3 x (57,802,752 + 3 x 115,605,504 +
  // 6,422,528 downsample) + fc 512,000.
  EXPECT_EQ(compiler::passes::CountMacs(g), 1'814'073'344);
  const auto ops = compiler::passes::CountOps(g);
  EXPECT_EQ(ops.at("conv"), 20);
  EXPECT_EQ(ops.at("batch_normalization"), 20);
  EXPECT_EQ(ops.at("relu"), 17);
  EXPECT_EQ(ops.at("add"), 8);
  EXPECT_EQ(ops.at("max_pool"), 1);
  EXPECT_EQ(ops.at("gemm"), 1);
  EXPECT_EQ(g.inputs()[0]->shape(), (ir::Shape{1, 3, 224, 224}));
  EXPECT_EQ(g.outputs()[0]->shape(), (ir::Shape{1, 1000}));
  EXPECT_EQ(g.FindTensor("layer4.1.relu_1")->shape(), (ir::Shape{1, 512, 7, 7}));
}

TEST(MobileNetV2, MacsAndOpsAsTorchvision) {
  const ir::Graph g = Build("mobilenet_v2");
  const int64_t macs = compiler::passes::CountMacs(g);
  EXPECT_EQ(macs, 300'774'272);  // torchvision's model card: 0.30 GFLOPS (multiply-adds)
  const auto ops = compiler::passes::CountOps(g);
  EXPECT_EQ(ops.at("conv"), 52);
  EXPECT_EQ(ops.at("batch_normalization"), 52);
  EXPECT_EQ(ops.at("clip"), 35);
  EXPECT_EQ(ops.at("add"), 10);
  int64_t depthwise = 0;
  for (const ir::Node* n : g.NodesOfKind(ir::OpKind::kConv)) {
    depthwise += n->attrs().GetInt("group", 1) > 1;
  }
  EXPECT_EQ(depthwise, 17);
  EXPECT_EQ(g.outputs()[0]->shape(), (ir::Shape{1, 1000}));
}

TEST(Models, BatchNormStatisticsAreNotTheIdentity) {
  const ir::Graph g = Build("small_cnn");
  const ir::Node* bn = g.NodesOfKind(ir::OpKind::kBatchNormalization)[0];
  for (size_t i = 1; i <= 4; ++i) {
    const auto v = bn->input(i)->data<float>();
    const float identity = i == 1 || i == 4 ? 1.0f : 0.0f;  // gamma, var: 1; beta, mean: 0
    int64_t differ = 0;
    for (float x : v) differ += std::abs(x - identity) > 0.05f;
    EXPECT_GT(differ, int64_t(v.size()) / 2) << bn->input(i)->name();
  }
}

TEST(Models, AreDeterministic) {
  const ir::Graph a = Build("small_cnn"), b = Build("small_cnn");
  EXPECT_EQ(a.FindTensor("conv2.weight")->bytes(), b.FindTensor("conv2.weight")->bytes());
  EXPECT_EQ(MakeInputs(a, 4)[0].data, MakeInputs(b, 4)[0].data);
  EXPECT_NE(MakeInputs(a, 4)[0].data, MakeInputs(a, 5)[0].data);
  // Kaiming-uniform: |w| <= sqrt(6 / fan_in) with fan_in = 16 * 3 * 3.
  float max_abs = 0;
  for (float w : a.FindTensor("conv2.weight")->data<float>())
    max_abs = std::max(max_abs, std::abs(w));
  EXPECT_LE(max_abs, std::sqrt(6.0f / 144));
  EXPECT_GT(max_abs, 0.9f * std::sqrt(6.0f / 144));
}

TEST(Models, RegistryErrors) {
  const StatusOr<ir::Graph> missing = BuildModel("resnet50");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.status().message().find("resnet18, mobilenet_v2, small_cnn, mlp"),
            std::string::npos)
      << missing.status().message();
  EXPECT_EQ(BuildModel("resnet18", {.batch = 1, .image_size = 16}).status().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(BuildModel("small_cnn", {.batch = 0, .image_size = 0}).status().kind(),
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(ListModels().size(), 4u);
}

TEST(Models, SmallSizesAndBatchesBuild) {
  const ir::Graph g = Build("mobilenet_v2", {.batch = 2, .image_size = 64});
  EXPECT_EQ(g.outputs()[0]->shape(), (ir::Shape{2, 1000}));
  const ir::Graph mlp = Build("mlp", {.batch = 3, .image_size = 0});
  EXPECT_EQ(mlp.outputs()[0]->shape(), (ir::Shape{3, 10}));
}

}  // namespace
}  // namespace npu::workloads
