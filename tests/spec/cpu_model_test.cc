// The control core's cost model (hw/spec/cpu_model.h) and its config section: presets, overrides
// by field, the cycle formulas, validation naming the field, `--set` of real numbers, the
// fingerprint leaving it out; and the work each CPU kernel declares (hw/spec/cpu_ops.h).
#include "hw/spec/cpu_model.h"

#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/cpu_ops.h"

namespace npu::spec {
namespace {

TEST(CpuModel, PresetsAndOverridesByField) {
  NpuConfig c = DefaultConfig();
  EXPECT_EQ(ResolveCpuCosts(c).clock_mhz, 1500u);
  ASSERT_TRUE(ApplyOverride(c, "cpu.core=SMALL_CORE").ok());
  CpuCosts costs = ResolveCpuCosts(c);
  EXPECT_EQ(costs.clock_mhz, 400u);
  EXPECT_EQ(costs.cycles_per_unit[int(CpuWork::kMac)], 0.125);
  ASSERT_TRUE(ApplyOverride(c, "cpu.mac_cycles_per_mac=0.25").ok());
  ASSERT_TRUE(ApplyOverride(c, "cpu.clock_mhz=800").ok());
  costs = ResolveCpuCosts(c);
  EXPECT_EQ(costs.cycles_per_unit[int(CpuWork::kMac)], 0.25);
  EXPECT_EQ(costs.clock_mhz, 800u);
  EXPECT_EQ(costs.cycles_per_unit[int(CpuWork::kLut)], 1.0);  // still the preset's
  EXPECT_TRUE(Validate(c).ok());
}

TEST(CpuModel, CyclesRoundUpPerItemAndConvertToTheNpuClock) {
  CpuCosts costs = CpuPreset(SMALL_CORE);
  const std::vector<CpuWorkItem> work = {{CpuWork::kMac, 3}, {CpuWork::kLut, 5}};
  // 2000 + ceil(3 x 0.125) + ceil(5 x 1.0) = 2006 core cycles.
  EXPECT_EQ(CpuCoreCycles(costs, work), 2006u);
  NpuConfig c = DefaultConfig();
  ASSERT_TRUE(ApplyOverride(c, "cpu.core=SMALL_CORE").ok());
  EXPECT_EQ(CpuOpNpuCycles(c, work), (2006u * 1000 + 399) / 400);  // 1 GHz NPU, 400 MHz core
}

TEST(CpuModel, BadValuesNameTheField) {
  NpuConfig c = DefaultConfig();
  Status s = ApplyOverride(c, "cpu.softmax_cycles_per_element=fast");
  EXPECT_NE(s.message().find("is not a finite number"), std::string::npos) << s.message();
  s = ApplyOverride(c, "cpu.softmax_cycles_per_element=nan");
  EXPECT_FALSE(s.ok());
  ASSERT_TRUE(ApplyOverride(c, "cpu.softmax_cycles_per_element=-1").ok());
  s = Validate(c);
  EXPECT_NE(s.message().find("cpu: softmax cost -1"), std::string::npos) << s.message();
  c = DefaultConfig();
  ASSERT_TRUE(ApplyOverride(c, "cpu.clock_mhz=0").ok());
  EXPECT_NE(Validate(c).message().find("cpu.clock_mhz = 0"), std::string::npos);
}

TEST(CpuModel, TheControlCoreIsNotPartOfTheNpuFingerprint) {
  NpuConfig c = DefaultConfig();
  const uint64_t before = Fingerprint(c);
  ASSERT_TRUE(ApplyOverride(c, "cpu.core=SMALL_CORE").ok());
  EXPECT_EQ(Fingerprint(c), before);
  ASSERT_TRUE(ApplyOverride(c, "mac.rows=16").ok());
  EXPECT_NE(Fingerprint(c), before);
}

TensorDesc Desc(std::vector<uint32_t> shape) {
  TensorDesc t;
  for (uint32_t d : shape) t.add_shape(d);
  t.set_dtype(INT8);
  return t;
}

TEST(CpuOps, EachKernelDeclaresItsWork) {
  CpuOp op;
  op.set_name("mm");
  op.set_kernel("matmul");
  *op.add_inputs() = Desc({4, 6, 10});
  *op.add_inputs() = Desc({4, 10, 3});
  *op.add_outputs() = Desc({4, 6, 3});
  StatusOr<std::vector<CpuWorkItem>> w = CpuOpWork(op);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ((*w)[0].kind, CpuWork::kMac);
  EXPECT_EQ((*w)[0].count, 4u * 6 * 3 * 10);
  op.set_kernel("transpose");
  EXPECT_EQ((*CpuOpWork(op))[0].kind, CpuWork::kCopy);
  op.set_kernel("softmax");
  EXPECT_EQ((*CpuOpWork(op))[0].count, 72u);
  op.set_kernel("fft");
  EXPECT_NE(CpuOpWork(op).status().message().find("no CPU kernel 'fft'"), std::string::npos);
  for (std::string_view k : CpuKernelNames()) EXPECT_TRUE(IsCpuKernel(k));
}

}  // namespace
}  // namespace npu::spec
