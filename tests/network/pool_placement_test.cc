// Pools placed beside a convolution (compiler/network/pool_placement.h): an inception-like
// block's pooling branch, listed last, moves to follow the block's largest convolution, which
// does not depend on it; the program still computes the reference's bytes (in random
// token-legal orders too) and is predicted faster than with the pool left where it was. A pool
// whose only neighbours depend on it stays.
#include "compiler/network/pool_placement.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "compiler/lower/lower_graph.h"

#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

// x (28 x 28 x 64) -> [1x1 to 32 -> 3x3 to 64], [1x1 to 8] and [3x3 stride-1 max pool -> 1x1 to
// 16], in that order.
ir::Graph Inception() {
  QuantGraphBuilder b("inception", 3);
  ir::Tensor* x = b.Input("x", 28, 28, 64);
  ir::Tensor* t = b.Conv(x, "reduce", {.out_c = 32, .activation = "relu"});
  t = b.Conv(t, "conv3x3", {.out_c = 64, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
  ir::Tensor* small = b.Conv(x, "small", {.out_c = 8});
  ir::Tensor* p = b.MaxPool(
      x, "pool", {.kh = 3, .kw = 3, .stride_h = 1, .stride_w = 1, .pads = {1, 1, 1, 1}});
  return b.Finish({t, small, b.Conv(p, "pool_proj", {.out_c = 16})});
}

size_t IndexOf(const CompiledModel& m, const std::string& name) {
  const auto it = std::find_if(m.layers.begin(), m.layers.end(),
                               [&](const ModelLayer& l) { return l.name == name; });
  EXPECT_NE(it, m.layers.end()) << name;
  return it - m.layers.begin();
}

TEST(PoolPlacement, APoolingBranchRunsBesideTheLargestConvolution) {
  const spec::NpuConfig config = Config({});
  const ir::Graph g = Inception();
  const CompiledModel placed = ExpectBitExact(g, config, 2);
  EXPECT_EQ(IndexOf(placed, "pool"), IndexOf(placed, "conv3x3") + 1);
  CompileOptions stay;
  stay.place_pools = false;
  StatusOr<CompiledModel> unplaced = CompileModel(config, g, stay);
  ASSERT_TRUE(unplaced.ok());
  EXPECT_EQ(IndexOf(*unplaced, "pool"), IndexOf(*unplaced, "pool_proj") - 1);
  EXPECT_LT(placed.cost.cycles, unplaced->cost.cycles);
}

TEST(PoolPlacement, APoolBetweenItsProducerAndItsReaderStays) {
  QuantGraphBuilder b("stem", 3);
  ir::Tensor* x = b.Input("x", 28, 28, 16);
  ir::Tensor* t = b.Conv(x, "conv1", {.out_c = 32, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
  t = b.MaxPool(t, "pool", {.kh = 2, .kw = 2});
  const ir::Graph g = b.Finish({b.Conv(t, "conv2", {.out_c = 32})});
  StatusOr<Network> net = LowerGraph(g, {});
  ASSERT_TRUE(net.ok()) << net.status().message();
  EXPECT_EQ(MovePoolsBesideConvolutions(*net), 0);
}

}  // namespace
}  // namespace npu::compiler::testing
