// The control core's cost model: what a CPU kernel of the firmware costs, as core cycles per unit
// of work of a few kinds, plus a fixed overhead per op. The control-core model of the platform
// turns the work a kernel declares into simulated time with it, and the compiler predicts CPU ops
// with it, so the two agree. docs/cpu-fallback.md states the presets and where their figures
// come from.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "hw/spec/npu_config.pb.h"

namespace npu::spec {

enum class CpuWork : uint8_t {
  kCopy,         // bytes moved: transposes, slices, concatenations, pads, gathers
  kLut,          // elements through a lookup table
  kElementwise,  // output elements of a requantised binary op
  kReduce,       // elements summed or compared: reductions, pooling taps
  kMac,          // multiply-accumulates
  kRequantize,   // int32 results requantised to int8
  kSoftmax,      // elements of a softmax
  kLayerNorm,    // elements of a layer normalisation
  kResize,       // interpolated output elements
};
inline constexpr int kNumCpuWork = 9;
std::string_view CpuWorkName(CpuWork work);

struct CpuWorkItem {
  CpuWork kind;
  uint64_t count;
};

struct CpuCosts {
  uint32_t clock_mhz = 0;
  uint32_t op_overhead_cycles = 0;
  std::array<double, kNumCpuWork> cycles_per_unit{};  // indexed by CpuWork
};

// The preset of `core` (LARGE_CORE for CPU_CORE_UNSPECIFIED).
CpuCosts CpuPreset(CpuCore core);
// The preset of config.cpu().core() with every field the config sets explicitly.
CpuCosts ResolveCpuCosts(const NpuConfig& config);

// Core cycles of one op: the overhead plus, per item, ceil(count * cycles per unit).
uint64_t CpuCoreCycles(const CpuCosts& costs, std::span<const CpuWorkItem> work);
// The same in NPU cycles (the platform's time base): ceil(core cycles * clock_mhz / cpu clock).
uint64_t CpuOpNpuCycles(const NpuConfig& config, std::span<const CpuWorkItem> work);

}  // namespace npu::spec
