// The energy and area models (hw/spec/energy_model.h, area_model.h, tech_model.h) and the `tech`
// config section: each formula against a value computed by hand from docs/energy-area.md, the
// node presets and their overrides, validation naming the field, and the fingerprint leaving
// the section out.
#include "tests/common/hand_config.h"
#include "hw/spec/energy_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "hw/spec/area_model.h"
#include "hw/spec/config.h"
#include "hw/spec/tech_model.h"

namespace npu::spec {
namespace {

NpuConfig At(const char* node) {
  NpuConfig c = ::npu::testing::HandConfig();
  EXPECT_TRUE(ApplyOverride(c, std::string("tech.node=") + node).ok());
  return c;
}

TEST(EnergyModel, SramWordEnergyFollowsHorowitzAnchors) {
  EXPECT_DOUBLE_EQ(SramWordEnergy45Pj(8192, 4), 5.0);        // 8 KB, 32 bits
  EXPECT_DOUBLE_EQ(SramWordEnergy45Pj(32768, 4), 10.0);      // 32 KB
  EXPECT_NEAR(SramWordEnergy45Pj(1 << 20, 4), 56.57, 0.01);  // 1 MB: 5 x sqrt(128); paper 50
  EXPECT_DOUBLE_EQ(SramWordEnergy45Pj(8192, 8), 10.0);       // 64 bits: twice 32
}

TEST(EnergyModel, CostsAt45nmAreTheHandComputedFigures) {
  const EnergyCosts e = ResolveEnergyCosts(At("NODE_45NM"));
  EXPECT_DOUBLE_EQ(e.mac_pj, 0.3);       // 8-bit multiply 0.2 + 32-bit add 0.1
  EXPECT_DOUBLE_EQ(e.fp16_mac_pj, 2.0);  // FP16 multiply 1.1 + FP32 add 0.9
  // 1 MiB in 16 banks of 64 KiB, 16-byte words: 5 x sqrt(8) x 4.
  EXPECT_NEAR(e.sram_read_word_pj, 56.5685, 1e-4);
  EXPECT_DOUBLE_EQ(e.sram_write_word_pj, e.sram_read_word_pj);
  EXPECT_NEAR(e.acc_entry_pj, 3.5355, 1e-4);     // 128 KiB over 32 columns: 4 KiB, 5 x sqrt(1/2)
  EXPECT_DOUBLE_EQ(e.vector_op_pj, 3.2);         // 32-bit multiply 3.1 + add 0.1
  EXPECT_NEAR(e.dma_pj_per_byte, 1.7678, 1e-4);  // 2 x 4 KiB staging bytes: 2 x 5 x sqrt(1/2) / 4
  EXPECT_NEAR(e.control_pj_per_instruction, 28.2843, 1e-4);  // 2 x 1 KiB queue, 32 B: 2x5x0.354x8
  EXPECT_DOUBLE_EQ(e.dram_pj_per_byte, 162.5);               // 1.3 nJ per 64 bits
  const double area = TotalArea(UnitAreas(At("NODE_45NM")));
  EXPECT_NEAR(e.interconnect_pj_per_byte, 0.8 * std::sqrt(area), 1e-9);
  EXPECT_NEAR(e.leakage_mw, 10 * area, 1e-9);
}

TEST(EnergyModel, EventEnergyPricesEachUnit) {
  EnergyCosts c;
  c.mac_pj = 1, c.sram_read_word_pj = 2, c.sram_write_word_pj = 3, c.acc_entry_pj = 4;
  c.vector_op_pj = 5, c.dma_pj_per_byte = 6, c.interconnect_pj_per_byte = 7;
  c.dram_pj_per_byte = 8, c.control_pj_per_instruction = 9;
  UnitEvents ev;
  ev.macs = 10, ev.sram_read_words = 2, ev.sram_write_words = 1, ev.acc_read_bytes = 8;
  ev.acc_write_bytes = 4, ev.vector_ops = 3, ev.dma_bytes = 100, ev.dram_read_bytes = 60;
  ev.dram_write_bytes = 4, ev.fetched_instructions = 2;
  const EnergyBreakdown e = EventEnergy(c, ev);
  EXPECT_DOUBLE_EQ(e[int(EnergyUnit::kMacArray)], 10);
  EXPECT_DOUBLE_EQ(e[int(EnergyUnit::kSram)], 2 * 2 + 1 * 3);
  EXPECT_DOUBLE_EQ(e[int(EnergyUnit::kAccumulator)], 3 * 4);  // 12 bytes: 3 entries
  EXPECT_DOUBLE_EQ(e[int(EnergyUnit::kVectorUnit)], 15);
  EXPECT_DOUBLE_EQ(e[int(EnergyUnit::kDma)], 600);
  EXPECT_DOUBLE_EQ(e[int(EnergyUnit::kInterconnect)], 64 * 7);
  EXPECT_DOUBLE_EQ(e[int(EnergyUnit::kDram)], 64 * 8);
  EXPECT_DOUBLE_EQ(e[int(EnergyUnit::kControl)], 18);
  EXPECT_DOUBLE_EQ(e[int(EnergyUnit::kLeakage)], 0);
  EXPECT_DOUBLE_EQ(TotalEnergy(e), 10 + 7 + 12 + 15 + 600 + 448 + 512 + 18);
  // FP16 MACs at their own price, the rest at int8's.
  c.fp16_mac_pj = 20;
  ev.fp16_macs = 4;
  EXPECT_DOUBLE_EQ(EventEnergy(c, ev)[int(EnergyUnit::kMacArray)], 6 * 1 + 4 * 20);
}

TEST(EnergyModel, LeakageIsPowerTimesTime) {
  EnergyCosts c;
  c.leakage_mw = 2;
  EXPECT_DOUBLE_EQ(LeakagePj(c, 1000, 1000), 2000);  // 2 mW for 1 us: 2 nJ
  EXPECT_DOUBLE_EQ(LeakagePj(c, 1000, 500), 4000);
}

TEST(TechModel, NodesScaleEnergyByFeatureSizeAndVoltageSquared) {
  EXPECT_DOUBLE_EQ(TechPreset(NODE_45NM).energy_scale(), 1.0);
  EXPECT_NEAR(TechPreset(NODE_28NM).energy_scale(), 28.0 / 45, 1e-12);  // 0.9 V like 45 nm
  EXPECT_NEAR(TechPreset(NODE_7NM).energy_scale(), 7.0 / 45 * (0.75 / 0.9) * (0.75 / 0.9), 1e-12);
  EXPECT_EQ(TechPreset(TECH_NODE_UNSPECIFIED).node, NODE_28NM);
  NpuConfig c = At("NODE_45NM");
  ASSERT_TRUE(ApplyOverride(c, "tech.voltage_v=0.99").ok());
  const TechParams t = ResolveTech(c);
  EXPECT_NEAR(t.energy_scale(), 1.21, 1e-12);
  EXPECT_NEAR(t.leakage_mw_per_mm2, 11.0, 1e-12);  // linear in the supply
  EXPECT_NEAR(ResolveEnergyCosts(c).mac_pj, 0.3 * 1.21, 1e-12);
  ASSERT_TRUE(ApplyOverride(c, "tech.dram_pj_per_byte=20").ok());
  EXPECT_DOUBLE_EQ(ResolveEnergyCosts(c).dram_pj_per_byte, 20);
  EXPECT_TRUE(Validate(c).ok());
}

TEST(AreaModel, UnitsAt45nmAreTheHandComputedFigures) {
  // 8 KiB, 32-bit port: 65536 bits x 0.346 / 0.7 + 5000 + 32 x 2 x 4.522 um^2.
  EXPECT_NEAR(SramMacroArea45Mm2(8192, 4), (65536 * 0.346 / 0.7 + 5000 + 32 * 9.044) / 1e6, 1e-12);
  const AreaBreakdown a = UnitAreas(At("NODE_45NM"));
  // 32 x 32 PEs of 282 + 137 + 48 x 4.522 um^2.
  EXPECT_NEAR(a[int(AreaUnit::kMacArray)], 1024 * 636.056 / 1e6, 1e-9);
  EXPECT_NEAR(a[int(AreaUnit::kSram)], 16 * SramMacroArea45Mm2(65536, 16), 1e-12);
  EXPECT_NEAR(a[int(AreaUnit::kVectorUnit)], 32 * (3495 + 274 + 64 * 4.522) / 1e6, 1e-9);
  // The layer normaliser: 16 dividers and the square root, each 32 stages of a 32-bit
  // subtractor (137 um^2) and 96 register bits.
  NpuConfig with_norm = At("NODE_45NM");
  with_norm.mutable_act()->set_norm_dividers(16);
  EXPECT_NEAR(UnitAreas(with_norm)[int(AreaUnit::kVectorUnit)] - a[int(AreaUnit::kVectorUnit)],
              17 * 32 * (137 + 96 * 4.522) / 1e6, 1e-9);
  const AreaBreakdown a7 = UnitAreas(At("NODE_7NM"));
  EXPECT_NEAR(TotalArea(a7), TotalArea(a) * 0.027 / 0.346, 1e-9);  // bitcell ratio
}

TEST(TechConfig, BadValuesNameTheField) {
  NpuConfig c = At("NODE_7NM");
  ASSERT_TRUE(ApplyOverride(c, "tech.voltage_v=5").ok());
  Status s = Validate(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("tech.voltage_v = 5"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("NODE_7NM"), std::string::npos) << s.message();
  c = ::npu::testing::HandConfig();
  ASSERT_TRUE(ApplyOverride(c, "tech.leakage_mw_per_mm2=-1").ok());
  s = Validate(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("tech.leakage_mw_per_mm2"), std::string::npos) << s.message();
  s = ApplyOverride(c, "tech.node=NODE_3NM");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("NODE_45NM"), std::string::npos) << s.message();
}

TEST(TechConfig, IsNotPartOfTheFingerprint) {
  NpuConfig c = ::npu::testing::HandConfig();
  const uint64_t before = Fingerprint(c);
  ASSERT_TRUE(ApplyOverride(c, "tech.node=NODE_7NM").ok());
  ASSERT_TRUE(ApplyOverride(c, "tech.voltage_v=0.7").ok());
  EXPECT_EQ(Fingerprint(c), before);
}

}  // namespace
}  // namespace npu::spec
