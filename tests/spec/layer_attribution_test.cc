// The rules that attribute a run to layers (hw/spec/layer_attribution.h), shared by the
// compiler's prediction and the run report.
#include "hw/spec/layer_attribution.h"

#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/dram_device.h"

namespace npu::spec {
namespace {

TEST(LayerAttribution, CyclesPartitionTheRun) {
  // Layer 1 ends before layer 0 (it ran under it): it takes no cycles, and layer 2 counts from
  // layer 0's completion. The last layer takes the run's tail (the firmware after it).
  const std::vector<uint64_t> ends = {100, 80, 250, 0};
  EXPECT_EQ(PartitionCycles(ends, 300), (std::vector<uint64_t>{100, 0, 150, 50}));
  EXPECT_TRUE(PartitionCycles({}, 300).empty());
}

TEST(LayerAttribution, TrafficCountsFetchAndData) {
  DmaArgs d;
  d.run_bytes = 100;
  d.n1 = 3;
  d.n2 = 1;
  DramTraffic t;
  AddInstructionTraffic({Opcode::kLoad, 0, 0, d}, t);
  AddInstructionTraffic({Opcode::kStore, 0, 0, d}, t);
  AddInstructionTraffic({Opcode::kConv, 0, 0, ConvArgs{}}, t);
  AddFetchTraffic(t);  // an instruction that did not decode
  EXPECT_EQ(t.read_bytes, 4u * kInsnBytes + 300);
  EXPECT_EQ(t.write_bytes, 300u);
  CpuOp op;
  op.add_inputs()->set_size_bytes(64);
  op.add_inputs()->set_size_bytes(16);
  op.add_outputs()->set_size_bytes(8);
  const DramTraffic cpu = CpuOpTraffic(op);
  EXPECT_EQ(cpu.read_bytes, 80u);
  EXPECT_EQ(cpu.write_bytes, 8u);
}

TEST(LayerAttribution, RooflineAtTheDramsPeak) {
  NpuConfig c = DefaultConfig();  // 32 x 32, IDEAL DRAM at 32 bytes per cycle
  EXPECT_EQ(LayerRooflineCycles(c, 1024 * 10, 64), 10u);    // compute bound
  // W4A8 at mac.int4_weight_rate 2: int4 MACs take half a slot.
  EXPECT_EQ(MacSlots(c, 1024 * 10, 1024 * 4), 1024u * 8);
  c.mutable_mac()->set_int4_weight_rate(1);
  EXPECT_EQ(MacSlots(c, 1024 * 10, 1024 * 4), 1024u * 10);
  c.mutable_mac()->set_int4_weight_rate(2);
  EXPECT_EQ(LayerRooflineCycles(c, 1024, 32 * 100), 100u);  // DRAM bound
  c.mutable_dram()->set_standard(DDR4_3200);                // its own peak, not 32 B/cycle
  EXPECT_EQ(LayerRooflineCycles(c, 1024, 32 * 100), DramPeakCycles(c, 32 * 100));
  EXPECT_NE(DramPeakCycles(c, 32 * 100), 100u);
}

}  // namespace
}  // namespace npu::spec
