// Held constants (compiler/network/held_constants.h): the strips of one node of a fused layer
// group LOAD its weights and records once, the first strip into a region of SRAM the later
// strips read; bit-exact on the NPU in any token-legal order, with less DRAM traffic and a
// smaller constant segment than strips that each LOAD them.
#include "compiler/network/held_constants.h"

#include <gtest/gtest.h>

#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {


CompileOptions Strips(bool hold) {
  CompileOptions o;
  o.row_strips = CompileOptions::RowStrips::kOn;
  o.strip_rows = {{"conv_b", 1}, {"pool", 2}};  // one chain, 2 of the 12 pool rows a strip
  o.hold_constants = hold;
  return o;
}

bool IsStripOf(const ModelLayer& l, const std::string& node) {
  return l.name.rfind(node + "#strip", 0) == 0;
}

// The bytes layer `l`'s LOADs read from the constant segment (weights, records, tables).
uint64_t ConstantBytesLoaded(const CompiledModel& m, const ModelLayer& l) {
  const uint64_t begin = m.memory.constants_offset, end = begin + m.memory.constants_bytes;
  uint64_t bytes = 0;
  for (uint32_t i : l.instructions) {
    const spec::Instruction& insn = m.instructions[i];
    const auto* dma = std::get_if<spec::DmaArgs>(&insn.args);
    if (insn.opcode != spec::Opcode::kLoad || dma == nullptr) continue;
    if (dma->dram_offset >= begin && dma->dram_offset < end) {
      bytes += uint64_t{dma->run_bytes} * dma->n1 * dma->n2;
    }
  }
  return bytes;
}

TEST(HeldConstants, StripsOfANodeLoadItsWeightsAndRecordsOnce) {
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  // On 16 KiB of SRAM both intermediates (6 KiB) exceed a quarter of it: the three layers split
  // as one chain.
  const ir::Graph whole = TwoConvolutionsAndAPool("held", 23, 8, 16);
  const CompiledModel held = ExpectBitExact(whole, config, 2, Strips(true));
  StatusOr<CompiledModel> loading = CompileModel(config, whole, Strips(false));
  ASSERT_TRUE(loading.ok()) << loading.status().message();
  ASSERT_EQ(held.row_strip_groups.size(), 1u);
  ASSERT_EQ(held.row_strip_groups[0].strips.size(), 6u);  // 12 pool rows (stride 2), 2 a strip
  EXPECT_EQ(held.memory.held_constants.size(), 2u);       // conv_a's and conv_b's
  EXPECT_TRUE(loading->memory.held_constants.empty());
  for (const std::string node : {"conv_a", "conv_b"}) {
    SCOPED_TRACE(node);
    int strips = 0;
    for (size_t i = 0; i < held.layers.size(); ++i) {
      const ModelLayer& l = held.layers[i];
      if (!IsStripOf(l, node)) continue;
      ++strips;
      ASSERT_TRUE(l.conv_tiling.has_value());
      EXPECT_EQ(l.conv_tiling->held, l.strip == 0 ? HeldConstants::kLoads : HeldConstants::kReuses);
      EXPECT_NE(l.tiling.find(l.strip == 0 ? "held=load" : "held=reuse"), std::string::npos);
      // The first strip LOADs the node's weights and records, each once; the others none. Each
      // strip LOADs them all when they are not held.
      EXPECT_EQ(ConstantBytesLoaded(held, l), l.strip == 0 ? l.constant_bytes : 0u) << l.name;
      const ModelLayer& other = loading->layers[i];
      ASSERT_EQ(other.name, l.name);
      EXPECT_GE(ConstantBytesLoaded(*loading, other), other.constant_bytes) << l.name;
    }
    EXPECT_EQ(strips, 6);
  }
  // Less traffic in about as many cycles (this network waits for the array, not DRAM), and no
  // weights in DRAM for strips that never LOAD them.
  EXPECT_LT(held.cost.dram_bytes(), loading->cost.dram_bytes());
  EXPECT_LE(double(held.cost.cycles), loading->cost.cycles * 1.01);
  EXPECT_LT(held.memory.constants_bytes, loading->memory.constants_bytes);
  EXPECT_EQ(held.min_dram_bytes, loading->min_dram_bytes);
}

TEST(HeldConstants, NotWhereTheSramCannotHoldThem) {
  // 64 output channels: conv_b's 36 KiB of weights exceed the 16 KiB of SRAM: every strip LOADs
  // its own, still bit-exact.
  const spec::NpuConfig config = Config({"sram.size_bytes=16384"});
  QuantGraphBuilder b("large", 29);
  ir::Tensor* x = b.Input("x", 24, 16, 8);
  ir::Tensor* t = b.Conv(x, "conv_a", {.out_c = 64, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
  t = b.Conv(t, "conv_b", {.out_c = 64, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
  const ir::Graph g = b.Finish({b.MaxPool(t, "pool", {.kh = 3, .kw = 3, .pads = {1, 1, 1, 1}})});
  const CompiledModel m = ExpectBitExact(g, config, 1, Strips(true));
  ASSERT_EQ(m.row_strip_groups.size(), 1u);
  for (const ModelLayer& l : m.layers) {
    if (IsStripOf(l, "conv_b")) {
      ASSERT_TRUE(l.conv_tiling.has_value());
      EXPECT_EQ(l.conv_tiling->held, HeldConstants::kNone) << l.name;
    }
  }
}

}  // namespace
}  // namespace npu::compiler::testing
