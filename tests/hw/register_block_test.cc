// The register block as firmware sees it over the bus: identity, the config fingerprint,
// refused accesses, and a doorbell with nothing to run completing with an interrupt.
#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/memory_map.h"
#include "platform/soc.h"

namespace npu {
namespace {

namespace regs = spec::regs;

TEST(RegisterBlock, AnswersAndRefusesAsDocumented) {
  const spec::NpuConfig config = spec::DefaultConfig();
  uint32_t id = 0, fp_lo = 0, fp_hi = 0, status = 0, irq = 0, cycles = 0;
  bool unmapped_ok = true, read_only_ok = true, unaligned_ok = true;
  platform::Soc soc("soc", config, {}, [&](fw::Bus& bus) {
    const uint64_t base = spec::kNpuRegsBase;
    bus.Read32(base + regs::kId, id);
    bus.Read32(base + regs::kConfigFpLo, fp_lo);
    bus.Read32(base + regs::kConfigFpHi, fp_hi);
    uint32_t ignored;
    unmapped_ok = bus.Read32(base + 0x0F0, ignored);
    read_only_ok = bus.Write32(base + regs::kId, 5);
    unaligned_ok = bus.Read32(base + regs::kStatus + 2, ignored);
    bus.Write32(base + regs::kInsnCount, 0);  // an empty run
    bus.Write32(base + regs::kIrqEnable, regs::kIrqDone);
    bus.Write32(base + regs::kDoorbell, 1);
    bus.WaitForInterrupt();
    bus.Read32(base + regs::kStatus, status);
    bus.Read32(base + regs::kIrqStatus, irq);
    bus.Read32(base + regs::CounterOffset(regs::kCycles), cycles);
  });
  sc_core::sc_start();
  EXPECT_TRUE(soc.core.finished());
  EXPECT_EQ(id, regs::kIdValue);
  EXPECT_EQ((uint64_t{fp_hi} << 32) | fp_lo, spec::Fingerprint(config));
  EXPECT_FALSE(unmapped_ok);
  EXPECT_FALSE(read_only_ok);
  EXPECT_FALSE(unaligned_ok);
  EXPECT_EQ(status, regs::kStatusDone);
  EXPECT_EQ(irq, regs::kIrqDone);
  EXPECT_EQ(cycles, 0u);
}

}  // namespace
}  // namespace npu
