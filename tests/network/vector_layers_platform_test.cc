// ELTWISE, LUT, convolutions with a table and matrix products of two activations on the virtual
// platform: hand-built networks compiled, run by the firmware on the SystemC model, every output
// byte equal to the direct evaluation, and the compiler's exact replay equal to the platform
// instruction by instruction (start and end of each) and in total cycles. One case per process
// (SystemC elaborates once).
#include <gtest/gtest.h>

#include <functional>

#include "compiler/network/compile_model.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "platform/run.h"
#include "tests/network/hand_network.h"
#include "tests/network/network_test_util.h"

namespace npu::compiler::testing {
namespace {

using spec::Broadcast;
using spec::EltwiseOp;

struct Case {
  std::string name;
  std::string config;  // a SweepConfigs() name
  std::function<Network()> network;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

spec::NpuConfig Named(const std::string& name) {
  for (const NamedConfig& c : SweepConfigs()) {
    if (c.name == name) return c.config;
  }
  ADD_FAILURE() << "no config " << name;
  return spec::DefaultConfig();
}

class VectorLayersOnPlatform : public ::testing::TestWithParam<Case> {};

TEST_P(VectorLayersOnPlatform, BitExactAndPredictedExactly) {
  const Case& c = GetParam();
  const spec::NpuConfig config = Named(c.config);
  const Network net = c.network();
  StatusOr<CompiledModel> m = CompileNetwork(config, net);
  ASSERT_TRUE(m.ok()) << m.status().message();
  const std::vector<std::vector<int8_t>> inputs = RandomNetworkInputs(net, 31);
  StatusOr<platform::RunResult> run =
      platform::RunBinary(config, spec::SealProgram(m->program), inputs, {});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->outputs, EvaluateNetwork(net, inputs));
  std::vector<spec::InsnRecord> timeline;
  StatusOr<CostEstimate> cost = PredictCost(config, m->instructions, &timeline);
  ASSERT_TRUE(cost.ok());
  ASSERT_EQ(timeline.size(), run->records.size());
  for (size_t i = 0; i < timeline.size(); ++i) {
    ASSERT_EQ(timeline[i].start, run->records[i].start)
        << "#" << i << " " << spec::Disassemble(m->instructions[i]);
    ASSERT_EQ(timeline[i].end, run->records[i].end)
        << "#" << i << " " << spec::Disassemble(m->instructions[i]);
  }
  EXPECT_EQ(m->cost.cycles, run->counters[spec::regs::kCycles]);
}

Network Eltwise(EltwiseOp op, Broadcast mode, uint32_t h, uint32_t w, uint32_t c, bool constant) {
  return OneEltwise(TestEltwise(op, mode, h, w, c, constant, 5));
}

// conv -> lut -> add(lut, conv) -> mul by a per-channel constant -> conv with a table.
Network Chain() {
  HandNetwork n("chain");
  const int x = n.Input(12, 10, 8, -7);
  const int t1 = n.Conv(x, {{TestConv(12, 10, 8, 16, false, 11)}});
  const int t2 = n.Lut(t1, TestLut(12, 10, 16, 12));
  const int t3 =
      n.Eltwise(t2, t1, TestEltwise(EltwiseOp::kAdd, Broadcast::kNone, 12, 10, 16, false, 13));
  const int t4 =
      n.Eltwise(t3, -1, TestEltwise(EltwiseOp::kMul, Broadcast::kChannel, 12, 10, 16, true, 14));
  n.Output(n.Conv(t4, {{TestConv(12, 10, 16, 8, true, 15)}}));
  return n.network();
}

// conv -> conv -> add(conv, conv) -> conv, layers the lowering already produces: on the tiny
// config a descriptor dispatched at the instant the command processor fetches (the replay once
// ordered their DRAM requests the other way round).
Network Residual() {
  HandNetwork n("residual");
  const int x = n.Input(12, 10, 8, -7);
  const int t1 = n.Conv(x, {{TestConv(12, 10, 8, 16, false, 11)}});
  const int t2 = n.Conv(t1, {{TestConv(12, 10, 16, 16, false, 12)}});
  const int t3 =
      n.Eltwise(t2, t1, TestEltwise(EltwiseOp::kAdd, Broadcast::kNone, 12, 10, 16, false, 13));
  n.Output(n.Conv(t3, {{TestConv(12, 10, 16, 8, false, 15)}}));
  return n.network();
}

// Two heads of attention scores: x -> q and k^T by convolutions, q x k^T (q on chip, k^T from
// DRAM), then a convolution over the scores.
Network Heads() {
  HandNetwork n("heads");
  const int x = n.Input(2, 12, 10, -7), y = n.Input(2, 8, 10, -7);
  const int q = n.Conv(x, {{TestConv(2, 12, 10, 8, false, 41)}});
  const int k = n.Conv(y, {{TestConv(2, 8, 10, 12, false, 42)}});
  MatMulLayer l = TestMatMul(12, 8, 12, {0, 1}, {0, 1}, 43);
  l.a_zero_point = l.b_zero_point = 5;  // TestConv's output zero point
  n.Output(n.Conv(n.MatMul(q, k, l), {{TestConv(2, 12, 12, 6, false, 44)}}));
  return n.network();
}

// Heads read from and written to [tokens][heads x dim] (q k^T with b transposed, then v).
Network HeadColumns(uint32_t tokens, uint32_t heads, uint32_t dim) {
  HandNetwork n("head_columns");
  const int q = n.Input(1, tokens, heads * dim, -3), k = n.Input(1, tokens, heads * dim, 6);
  const int v = n.Input(1, tokens, heads * dim, 2);
  const MatMulLayer scores = HeadsScores(tokens, heads, dim, 7);
  const int s = n.MatMul(q, k, scores);
  n.Output(n.MatMul(s, v, HeadsValues(tokens, heads, dim, 8), {1, tokens, heads * dim}));
  return n.network();
}

Network MatMul(uint32_t m, uint32_t k, uint32_t n, std::vector<uint32_t> a,
               std::vector<uint32_t> b) {
  return OneMatMul(TestMatMul(m, k, n, std::move(a), std::move(b), 6));
}

INSTANTIATE_TEST_SUITE_P(
    Layers, VectorLayersOnPlatform,
    ::testing::Values(
        Case{"lut_1x1x1", "default", [] { return OneLut(TestLut(1, 1, 1, 1)); }},
        Case{"lut_7x5x3_tiny", "tiny", [] { return OneLut(TestLut(7, 5, 3, 2)); }},
        Case{"lut_rows_longer_than_sram", "tiny", [] { return OneLut(TestLut(2, 3, 3000, 3)); }},
        Case{"add_7x5x3", "default",
             [] { return Eltwise(EltwiseOp::kAdd, Broadcast::kNone, 7, 5, 3, false); }},
        Case{"mul_channel_constant_os8", "os8",
             [] { return Eltwise(EltwiseOp::kMul, Broadcast::kChannel, 7, 5, 3, true); }},
        Case{"max_pixel_activation", "default",
             [] { return Eltwise(EltwiseOp::kMax, Broadcast::kPixel, 7, 5, 3, false); }},
        Case{"min_scalar_constant_1x1x1", "default",
             [] { return Eltwise(EltwiseOp::kMin, Broadcast::kScalar, 1, 1, 1, true); }},
        Case{"add_chunks_below_a_row_tiny", "tiny",
             [] { return Eltwise(EltwiseOp::kAdd, Broadcast::kNone, 3, 300, 20, false); }},
        Case{"max_channel_chunks_below_a_pixel_tiny", "tiny",
             [] { return Eltwise(EltwiseOp::kMax, Broadcast::kChannel, 2, 3, 3000, false); }},
        Case{"mul_pixel_chunks_below_a_pixel_tiny", "tiny",
             [] { return Eltwise(EltwiseOp::kMul, Broadcast::kPixel, 2, 3, 3000, true); }},
        Case{"conv_table_7x5x3", "default",
             [] { return OneConv({{TestConv(7, 5, 3, 33, true, 4)}}); }},
        Case{"conv_table_tiny", "tiny", [] { return OneConv({{TestConv(7, 5, 3, 33, true, 4)}}); }},
        Case{"chain_on_chip", "default", Chain}, Case{"chain_big", "big", Chain},
        Case{"chain_tiny", "tiny", Chain}, Case{"residual_tiny", "tiny", Residual},
        Case{"matmul_1x1x1", "default", [] { return MatMul(1, 1, 1, {0}, {0}); }},
        Case{"matmul_four_heads", "default",
             [] {
               return MatMul(23, 19, 13, {0, 1, 2, 3}, {0, 1, 2, 3});
             }},
        Case{"matmul_b_broadcast_os8", "os8",
             [] {
               return MatMul(33, 70, 17, {0, 1, 2}, {0, 0, 0});
             }},
        Case{"matmul_tiled_tiny", "tiny",
             [] {
               return MatMul(50, 300, 100, {0, 0}, {0, 1});
             }},
        Case{"matmul_heads_on_chip_big", "big", Heads}, Case{"matmul_heads_tiny", "tiny", Heads},
        Case{"matmul_head_columns_default", "default", [] { return HeadColumns(16, 4, 8); }},
        Case{"matmul_head_columns_tiny", "tiny", [] { return HeadColumns(37, 3, 21); }}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace npu::compiler::testing
