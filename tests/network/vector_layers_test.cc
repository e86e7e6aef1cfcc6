// ELTWISE, LUT and convolutions with a table, compiled as networks (hand-built: lowering does not
// produce them yet) and run on the functional executor in stream order and random token-legal
// orders, bit-exact against a direct evaluation: every op and broadcast mode with b an
// activation or a constant, odd shapes (1x1x1, 7x5x3), chunks smaller than a row or a pixel,
// on-chip (in-place) operands, tables loaded once per layer, on four configs.
#include <gtest/gtest.h>

#include "hw/spec/timing_model.h"
#include "tests/network/hand_network.h"
#include "tests/network/network_test_util.h"

namespace npu::compiler::testing {
namespace {

using spec::Broadcast;
using spec::EltwiseOp;

constexpr EltwiseOp kOps[] = {EltwiseOp::kAdd, EltwiseOp::kMul, EltwiseOp::kMax, EltwiseOp::kMin};
constexpr Broadcast kModes[] = {Broadcast::kNone, Broadcast::kChannel, Broadcast::kPixel,
                                Broadcast::kScalar};

CompiledModel ExpectExact(const Network& net, const spec::NpuConfig& config, uint32_t seed) {
  const std::vector<std::vector<int8_t>> inputs = RandomNetworkInputs(net, seed);
  return ExpectNetworkBitExact(net, config, inputs, EvaluateNetwork(net, inputs));
}

// The instructions of `layer` in `m` with opcode `op`.
std::vector<spec::Instruction> Of(const CompiledModel& m, size_t layer, spec::Opcode op) {
  std::vector<spec::Instruction> out;
  const ModelLayer& l = m.layers.at(layer);
  for (uint32_t i : l.instructions) {
    if (m.instructions[i].opcode == op) out.push_back(m.instructions[i]);
  }
  return out;
}

// LOADs of `layer` whose SRAM side covers `sram_addr`.
int LoadsInto(const CompiledModel& m, size_t layer, uint64_t sram_addr) {
  int loads = 0;
  for (const spec::Instruction& insn : Of(m, layer, spec::Opcode::kLoad)) {
    const auto& d = std::get<spec::DmaArgs>(insn.args);
    loads += d.sram_addr <= sram_addr && sram_addr < d.sram_addr + spec::DmaBytes(d);
  }
  return loads;
}

TEST(VectorLayers, EltwiseEveryOpAndBroadcastOnOddShapes) {
  for (const NamedConfig& config : SweepConfigs()) {
    uint32_t seed = 1;
    for (EltwiseOp op : kOps) {
      for (Broadcast mode : kModes) {
        for (bool constant_b : {false, true}) {
          for (auto [h, w, c] : {std::array<uint32_t, 3>{1, 1, 1}, {7, 5, 3}}) {
            SCOPED_TRACE(::testing::Message()
                         << config.name << " op " << int(op) << " broadcast " << int(mode)
                         << " constant " << constant_b << " " << h << "x" << w << "x" << c);
            ExpectExact(OneEltwise(TestEltwise(op, mode, h, w, c, constant_b, seed)), config.config,
                        seed);
            ++seed;
          }
        }
      }
    }
  }
}

TEST(VectorLayers, LutOnOddShapes) {
  for (const NamedConfig& config : SweepConfigs()) {
    uint32_t seed = 1;
    for (auto [h, w, c] : {std::array<uint32_t, 3>{1, 1, 1}, {7, 5, 3}, {23, 31, 17}}) {
      SCOPED_TRACE(::testing::Message() << config.name << " " << h << "x" << w << "x" << c);
      const CompiledModel m = ExpectExact(OneLut(TestLut(h, w, c, seed)), config.config, seed);
      ASSERT_FALSE(m.layers.empty());
      // The table is loaded once, whatever the number of chunks.
      const std::vector<spec::Instruction> luts = Of(m, 0, spec::Opcode::kLut);
      ASSERT_FALSE(luts.empty());
      EXPECT_EQ(LoadsInto(m, 0, std::get<spec::LutArgs>(luts[0].args).table_addr), 1);
      ++seed;
    }
  }
}

// Rows longer than the 4 KiB SRAM (and, for a per-channel b, pixels longer than fit beside it):
// chunks of part of a row, and of part of a pixel.
TEST(VectorLayers, ChunksSmallerThanARowAndThanAPixel) {
  const spec::NpuConfig tiny = SweepConfigs()[1].config;
  ASSERT_EQ(tiny.sram().size_bytes(), 4096u);
  uint32_t seed = 50;
  struct Shape {
    uint32_t h, w, c;
  };
  for (const Shape s : {Shape{3, 300, 20}, Shape{2, 3, 3000}}) {
    for (Broadcast mode : kModes) {
      for (bool constant_b : {false, true}) {
        SCOPED_TRACE(::testing::Message() << s.h << "x" << s.w << "x" << s.c << " broadcast "
                                          << int(mode) << " constant " << constant_b);
        const CompiledModel m = ExpectExact(
            OneEltwise(TestEltwise(EltwiseOp::kAdd, mode, s.h, s.w, s.c, constant_b, seed)), tiny,
            seed);
        ++seed;
        for (const spec::Instruction& insn : Of(m, 0, spec::Opcode::kEltwise)) {
          EXPECT_LT(std::get<spec::EltwiseArgs>(insn.args).count, s.w * s.c);
        }
      }
    }
  }
  const CompiledModel lut = ExpectExact(OneLut(TestLut(2, 3, 3000, 3)), tiny, 3);
  EXPECT_GT(Of(lut, 0, spec::Opcode::kLut).size(), 6u);
}

// A b broadcast per channel or as a scalar is loaded once per layer.
TEST(VectorLayers, SmallBIsLoadedOncePerLayer) {
  for (Broadcast mode : {Broadcast::kChannel, Broadcast::kScalar}) {
    for (bool constant_b : {false, true}) {
      const CompiledModel m =
          ExpectExact(OneEltwise(TestEltwise(EltwiseOp::kMax, mode, 9, 40, 24, constant_b, 7)),
                      SweepConfigs()[1].config, 7);
      const std::vector<spec::Instruction> ops = Of(m, 0, spec::Opcode::kEltwise);
      ASSERT_GT(ops.size(), 1u);
      EXPECT_EQ(LoadsInto(m, 0, std::get<spec::EltwiseArgs>(ops[0].args).b_addr), 1);
    }
  }
}

TEST(VectorLayers, ConvWithTable) {
  for (const NamedConfig& config : SweepConfigs()) {
    SCOPED_TRACE(config.name);
    const CompiledModel m =
        ExpectExact(OneConv({{TestConv(7, 5, 3, 33, true, 4)}}), config.config, 4);
    const std::vector<spec::Instruction> acts = Of(m, 0, spec::Opcode::kAct);
    ASSERT_FALSE(acts.empty());
    const uint32_t table = std::get<spec::ActArgs>(acts[0].args).table_addr;
    for (const spec::Instruction& act : acts) {
      EXPECT_TRUE(std::get<spec::ActArgs>(act.args).use_table);
      EXPECT_EQ(std::get<spec::ActArgs>(act.args).table_addr, table);
    }
    EXPECT_EQ(LoadsInto(m, 0, table), 1);
    EXPECT_EQ(m.layers[0].constant_bytes, 33u * 27 + 33 * spec::kActParamBytes + spec::kLutEntries);
  }
}

// Two groups over channel slices share one table, loaded once.
TEST(VectorLayers, GroupedConvWithTable) {
  for (const NamedConfig& config : SweepConfigs()) {
    SCOPED_TRACE(config.name);
    ConvLayer g0 = TestConv(6, 6, 4, 5, true, 8), g1 = TestConv(6, 6, 4, 5, true, 9);
    g1.table = g0.table;
    const CompiledModel m = ExpectExact(OneConv({{g0, 0, 0}, {g1, 4, 5}}), config.config, 8);
    const std::vector<spec::Instruction> acts = Of(m, 0, spec::Opcode::kAct);
    ASSERT_FALSE(acts.empty());
    EXPECT_EQ(LoadsInto(m, 0, std::get<spec::ActArgs>(acts[0].args).table_addr), 1);
  }
}

// conv -> lut -> add(lut, conv) -> mul by a per-channel constant -> conv: intermediates stay on
// chip and the elementwise layers write over inputs that die there.
Network OnChipChain() {
  HandNetwork n("chain");
  const int x = n.Input(12, 10, 8, -7);
  const int t1 = n.Conv(x, {{TestConv(12, 10, 8, 16, false, 11)}});
  LutLayer lut = TestLut(12, 10, 16, 12);
  const int t2 = n.Lut(t1, lut);
  const int t3 =
      n.Eltwise(t2, t1, TestEltwise(EltwiseOp::kAdd, Broadcast::kNone, 12, 10, 16, false, 13));
  const int t4 =
      n.Eltwise(t3, -1, TestEltwise(EltwiseOp::kMul, Broadcast::kChannel, 12, 10, 16, true, 14));
  n.Output(n.Conv(t4, {{TestConv(12, 10, 16, 8, true, 15)}}));
  return n.network();
}

TEST(VectorLayers, OnChipOperandsInPlace) {
  for (const NamedConfig& config : SweepConfigs()) {
    SCOPED_TRACE(config.name);
    const CompiledModel m = ExpectExact(OnChipChain(), config.config, 21);
    EXPECT_EQ(m.memory.elementwise_in_place, 2);  // the add over the lut's output, the mul
    if (config.name == "default" || config.name == "big") {
      for (size_t i : {1, 2, 3}) {
        const LayerResidency& r = m.layers[i].on_chip;
        EXPECT_TRUE(r.input[0] && (i != 2 || r.input[1]) && r.output) << m.layers[i].name;
      }
    }
  }
}

TEST(VectorLayers, BroadcastActivationsOnChip) {
  for (const NamedConfig& config : SweepConfigs()) {
    SCOPED_TRACE(config.name);
    const CompiledModel m = ExpectExact(BroadcastChain(), config.config, 27);
    if (config.name == "default" || config.name == "big") {
      for (size_t i : {3, 4}) {  // the mul and the max read both operands in place
        EXPECT_TRUE(m.layers[i].on_chip.input[0] && m.layers[i].on_chip.input[1])
            << m.layers[i].name;
      }
    }
  }
}

}  // namespace
}  // namespace npu::compiler::testing
