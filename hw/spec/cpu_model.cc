// The control core's presets and cost formulas.
#include "hw/spec/cpu_model.h"

#include <cmath>

namespace npu::spec {

std::string_view CpuWorkName(CpuWork work) {
  static constexpr std::string_view kNames[kNumCpuWork] = {"copy",    "lut",       "elementwise",
                                                           "reduce",  "mac",       "requantize",
                                                           "softmax", "layernorm", "resize"};
  return kNames[static_cast<int>(work)];
}

// Figures per unit of work, from the SIMD width of each class of core (docs/cpu-fallback.md):
// a 128-bit vector holds 16 int8 lanes; a Helium-class core retires about half a vector
// instruction per cycle, a dot-product core a whole one.
CpuCosts CpuPreset(CpuCore core) {
  CpuCosts c;
  if (core == SMALL_CORE) {
    c.clock_mhz = 400;
    c.op_overhead_cycles = 2000;
    //                 copy  lut   elem  reduce mac    requant softmax lnorm resize
    c.cycles_per_unit = {0.25, 1.0, 1.0, 0.25, 0.125, 1.0, 8.0, 6.0, 4.0};
  } else {
    c.clock_mhz = 1500;
    c.op_overhead_cycles = 3000;
    c.cycles_per_unit = {0.0625, 0.5, 0.5, 0.0625, 0.0625, 0.5, 4.0, 3.0, 2.0};
  }
  return c;
}

CpuCosts ResolveCpuCosts(const NpuConfig& config) {
  const CpuConfig& cpu = config.cpu();
  CpuCosts c = CpuPreset(cpu.has_core() ? cpu.core() : LARGE_CORE);
  if (cpu.has_clock_mhz()) c.clock_mhz = cpu.clock_mhz();
  if (cpu.has_op_overhead_cycles()) c.op_overhead_cycles = cpu.op_overhead_cycles();
  auto set = [&](CpuWork w, bool has, double v) {
    if (has) c.cycles_per_unit[static_cast<int>(w)] = v;
  };
  set(CpuWork::kCopy, cpu.has_copy_cycles_per_byte(), cpu.copy_cycles_per_byte());
  set(CpuWork::kLut, cpu.has_lut_cycles_per_element(), cpu.lut_cycles_per_element());
  set(CpuWork::kElementwise, cpu.has_elementwise_cycles_per_element(),
      cpu.elementwise_cycles_per_element());
  set(CpuWork::kReduce, cpu.has_reduce_cycles_per_element(), cpu.reduce_cycles_per_element());
  set(CpuWork::kMac, cpu.has_mac_cycles_per_mac(), cpu.mac_cycles_per_mac());
  set(CpuWork::kRequantize, cpu.has_requantize_cycles_per_element(),
      cpu.requantize_cycles_per_element());
  set(CpuWork::kSoftmax, cpu.has_softmax_cycles_per_element(), cpu.softmax_cycles_per_element());
  set(CpuWork::kLayerNorm, cpu.has_layernorm_cycles_per_element(),
      cpu.layernorm_cycles_per_element());
  set(CpuWork::kResize, cpu.has_resize_cycles_per_element(), cpu.resize_cycles_per_element());
  return c;
}

uint64_t CpuCoreCycles(const CpuCosts& costs, std::span<const CpuWorkItem> work) {
  uint64_t cycles = costs.op_overhead_cycles;
  for (const CpuWorkItem& item : work) {
    const double per = costs.cycles_per_unit[static_cast<int>(item.kind)];
    cycles += static_cast<uint64_t>(std::ceil(static_cast<double>(item.count) * per));
  }
  return cycles;
}

uint64_t CpuOpNpuCycles(const NpuConfig& config, std::span<const CpuWorkItem> work) {
  const CpuCosts costs = ResolveCpuCosts(config);
  const uint64_t core = CpuCoreCycles(costs, work);
  const uint64_t npu_mhz = config.clock_mhz();
  return (core * npu_mhz + costs.clock_mhz - 1) / costs.clock_mhz;
}

}  // namespace npu::spec
