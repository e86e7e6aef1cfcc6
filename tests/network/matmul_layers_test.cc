// Matrix products of two activations (MatMulLayer) compiled as networks and run on the functional
// executor in stream order and random token-legal orders, bit-exact against a direct evaluation
// of the IR's definition: M, K, N not multiples of any array side, one matrix and several heads,
// a or b broadcast over the batch, K and N tiled on a small config, a product between
// convolutions with its a kept on chip; and the CONVs and LOADs it is made of.
#include <gtest/gtest.h>

#include <algorithm>

#include "hw/spec/semantics.h"
#include "tests/network/hand_network.h"
#include "tests/network/network_test_util.h"

namespace npu::compiler::testing {
namespace {

CompiledModel ExpectExact(const Network& net, const spec::NpuConfig& config, uint32_t seed) {
  const std::vector<std::vector<int8_t>> inputs = RandomNetworkInputs(net, seed);
  return ExpectNetworkBitExact(net, config, inputs, EvaluateNetwork(net, inputs), 2);
}

std::vector<spec::Instruction> Of(const CompiledModel& m, size_t layer, spec::Opcode op) {
  std::vector<spec::Instruction> out;
  const ModelLayer& l = m.layers.at(layer);
  for (uint32_t i : l.instructions) {
    if (m.instructions[i].opcode == op) out.push_back(m.instructions[i]);
  }
  return out;
}

// Which a and b matrix each output matrix reads.
struct Batching {
  const char* name;
  std::vector<uint32_t> a, b;
};
const Batching kBatchings[] = {
    {"one matrix", {0}, {0}},
    {"four heads", {0, 1, 2, 3}, {0, 1, 2, 3}},
    {"b broadcast", {0, 1, 2}, {0, 0, 0}},
    {"a broadcast", {0, 0, 0}, {0, 1, 2}},
    {"[2,1] x [1,3]", {0, 0, 0, 1, 1, 1}, {0, 1, 2, 0, 1, 2}},
};

struct Shape {
  uint32_t m, k, n;
};

TEST(MatMulLayers, OddShapesAndBatchingsOnEveryConfig) {
  for (const NamedConfig& config : SweepConfigs()) {
    uint32_t seed = 1;
    for (const Batching& batching : kBatchings) {
      for (const Shape s : {Shape{1, 1, 1}, Shape{7, 5, 3}, Shape{23, 19, 13}, Shape{33, 70, 17}}) {
        SCOPED_TRACE(::testing::Message() << config.name << " " << batching.name << " " << s.m
                                          << "x" << s.k << " x " << s.k << "x" << s.n);
        const MatMulLayer l = TestMatMul(s.m, s.k, s.n, batching.a, batching.b, seed);
        const CompiledModel m = ExpectExact(OneMatMul(l), config.config, seed++);
        ASSERT_EQ(m.layers.size(), 1u);
        EXPECT_EQ(m.layers[0].op, "matmul");
        EXPECT_EQ(m.layers[0].macs, uint64_t{l.batches()} * s.m * s.k * s.n);
        EXPECT_EQ(m.layers[0].constant_bytes, s.n * spec::kActParamBytes);
        EXPECT_FALSE(m.layers[0].on_cpu);
      }
    }
  }
}

// Every CONV reads b's block as it is (weights_kn) and subtracts both zero points; every weight
// LOAD is a strided block of b (K-tile runs of one N-tile each); partial sums accumulate over K
// tiles.
TEST(MatMulLayers, LargeKAndNAreTiledIntoStridedBlocksOfB) {
  const spec::NpuConfig tiny = SweepConfigs()[1].config;
  ASSERT_EQ(tiny.sram().size_bytes(), 4096u);
  const MatMulLayer l = TestMatMul(50, 300, 100, {0, 1}, {0, 1}, 3);
  const CompiledModel m = ExpectExact(OneMatMul(l), tiny, 3);
  ASSERT_EQ(m.layers.size(), 1u);
  const std::vector<spec::Instruction> convs = Of(m, 0, spec::Opcode::kConv);
  ASSERT_GT(convs.size(), 4u);
  bool accumulates = false;
  for (const spec::Instruction& insn : convs) {
    const auto& c = std::get<spec::ConvArgs>(insn.args);
    EXPECT_TRUE(c.weights_kn);
    EXPECT_EQ(c.in_zero_point, l.a_zero_point);
    EXPECT_EQ(c.wt_zero_point, l.b_zero_point);
    EXPECT_LT(c.in_c, l.k);
    accumulates |= c.accumulate;
  }
  EXPECT_TRUE(accumulates);
  // b is the second input: its DRAM range is the second input descriptor's.
  const spec::TensorDesc& b = m.program.inputs(1);
  int strided = 0;
  for (const spec::Instruction& insn : Of(m, 0, spec::Opcode::kLoad)) {
    const auto& d = std::get<spec::DmaArgs>(insn.args);
    if (d.dram_offset < b.dram_offset() || d.dram_offset >= b.dram_offset() + b.size_bytes()) {
      continue;
    }
    EXPECT_LT(d.run_bytes, l.n);
    EXPECT_EQ(d.dram_stride1, l.n);
    strided += d.n1 > 1;
  }
  EXPECT_GT(strided, 0);
}

// A broadcast a is the same matrix for every batch: with one input tile it is loaded once.
TEST(MatMulLayers, ABroadcastOverTheBatchIsLoadedOnce) {
  const spec::NpuConfig config = SweepConfigs()[0].config;
  const MatMulLayer l = TestMatMul(16, 8, 16, {0, 0, 0, 0}, {0, 1, 2, 3}, 5);
  const CompiledModel m = ExpectExact(OneMatMul(l), config, 5);
  const spec::TensorDesc& a = m.program.inputs(0);
  int loads_of_a = 0;
  for (const spec::Instruction& insn : Of(m, 0, spec::Opcode::kLoad)) {
    const auto& d = std::get<spec::DmaArgs>(insn.args);
    loads_of_a += d.dram_offset >= a.dram_offset() && d.dram_offset < a.dram_offset() + 128;
  }
  EXPECT_EQ(loads_of_a, 1);
  EXPECT_EQ(Of(m, 0, spec::Opcode::kConv).size(), 4u);
}

// Attention's heads as they come out of a projection, [tokens][heads x dim], without transposes:
// scores = q k^T per head (b transposed: k's rows), out = scores v per head written back into
// [tokens][heads x dim]. One head's matrices are its dim columns, rows heads x dim bytes apart.
Network Heads(uint32_t tokens, uint32_t heads, uint32_t dim) {
  HandNetwork n("heads");
  const int q = n.Input(1, tokens, heads * dim, -3), k = n.Input(1, tokens, heads * dim, 6);
  const int v = n.Input(1, tokens, heads * dim, 2);
  MatMulLayer scores = HeadsScores(tokens, heads, dim, 7);
  scores.a_zero_point = -3, scores.b_zero_point = 6;
  const int s = n.MatMul(q, k, scores);
  MatMulLayer values = HeadsValues(tokens, heads, dim, 8);
  values.a_zero_point = scores.output_zero_point, values.b_zero_point = 2;
  n.Output(n.MatMul(s, v, values, {1, tokens, heads * dim}));
  return n.network();
}

TEST(MatMulLayers, HeadsReadAndWrittenInPlaceOfTransposesOnEveryConfig) {
  for (const NamedConfig& config : SweepConfigs()) {
    for (const Shape s : {Shape{6, 2, 3}, Shape{16, 4, 8}, Shape{37, 3, 21}}) {
      SCOPED_TRACE(::testing::Message()
                   << config.name << " tokens " << s.m << " heads " << s.k << " dim " << s.n);
      const CompiledModel m = ExpectExact(Heads(s.m, s.k, s.n), config.config, 11);
      ASSERT_EQ(m.layers.size(), 2u);
      // q k^T: CONV reads k's rows as they are (no weights_kn); scores v: weights_kn.
      for (size_t layer : {0, 1}) {
        for (const spec::Instruction& insn : Of(m, layer, spec::Opcode::kConv)) {
          EXPECT_EQ(std::get<spec::ConvArgs>(insn.args).weights_kn, layer == 1);
        }
      }
    }
  }
}

// q = conv(x) (12 x 8), k = conv(y) (8 x 12); q x k, then a convolution: q may stay on chip
// (CONV reads it in place), k is LOADed from DRAM block by block.
Network Attention() {
  HandNetwork n("attention");
  const int x = n.Input(1, 12, 10, -7), y = n.Input(1, 8, 10, -7);
  const int q = n.Conv(x, {{TestConv(1, 12, 10, 8, false, 31)}});
  const int k = n.Conv(y, {{TestConv(1, 8, 10, 12, false, 32)}});
  MatMulLayer l = TestMatMul(12, 8, 12, {0}, {0}, 33);
  l.a_zero_point = l.b_zero_point = 5;  // TestConv's output zero point
  const int s = n.MatMul(q, k, l);
  n.Output(n.Conv(s, {{TestConv(1, 12, 12, 6, false, 35)}}));
  return n.network();
}

TEST(MatMulLayers, BetweenConvolutionsWithAOnChipAndBInDram) {
  for (const NamedConfig& config : SweepConfigs()) {
    SCOPED_TRACE(config.name);
    const Network net = Attention();
    const CompiledModel m = ExpectExact(net, config.config, 9);
    ASSERT_EQ(m.layers.size(), 4u);
    EXPECT_EQ(m.layers[2].op, "matmul");
    const NetLayer& matmul = m.network.layers[2];
    const bool a_on_chip = m.memory.buffers[m.network.value(matmul.inputs[0]).buffer].on_chip;
    EXPECT_FALSE(m.memory.buffers[m.network.value(matmul.inputs[1]).buffer].on_chip);
    if (config.name == "default") {
      EXPECT_TRUE(a_on_chip);
    }
  }
}

}  // namespace
}  // namespace npu::compiler::testing
