// Which activations stay in SRAM between layers, every layer's tiling, and where everything
// sits in SRAM.
//
//   1. Residency (residency.h): a buffer may stay on chip if every layer touching it can use it
//      in place and is not slowed down by that (estimates), and if at every layer it is alive
//      the SRAM still holds the on-chip buffers plus what that layer's tiling needs (its
//      reserve). Buffers are taken greedily, most DRAM traffic saved first.
//   2. Every layer is tiled under the SRAM the on-chip buffers leave it.
//   3. Held constants (held_constants.h): the strips of one node of a fused layer group keep its
//      weights and records in SRAM from the first strip to the last, where they fit beside
//      everything else.
//   4. Placement (memory/interval_planner.h, stripe-aligned so every buffer starts on bank 0):
//      on-chip buffers over their lifetimes, each layer's scratch from the previous layer
//      on, so its first loads (weights) overlap the previous layer's compute, and the held
//      regions. If that does not fit, without held constants; then (with and without) each
//      layer's scratch from the previous layer on only where it fits, down to none; if that does
//      not fit either, an on-chip buffer alive where the SRAM overflows goes back to DRAM (the
//      cheapest in traffic for the room it makes: eviction.h) and steps 2-4 repeat. (A layer
//      that cannot be tiled in step 2 sends back the largest buffer alive at it.)
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "compiler/lower/network.h"
#include "compiler/network/held_constants.h"
#include "compiler/network/layer_schedule.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct OnChipOptions {
  bool keep_activations_on_chip = true;  // false: every activation goes through DRAM
  bool prefetch_across_layers = true;    // false: a layer's scratch lives only during it
  // Per layer name, a convolution tiling to take where it fits (CompileOptions::tilings).
  const std::map<std::string, ConvTiling>* tilings = nullptr;
  bool hold_constants = true;  // false: every strip LOADs its weights and records
};

struct OnChipPlan {
  std::vector<bool> on_chip;             // per buffer
  std::vector<uint64_t> sram_addr;       // per buffer, if on chip
  std::vector<LayerSchedule> schedules;  // per layer
  std::vector<uint64_t> scratch_base;    // per layer: SRAM address of its buffers
  std::vector<int> scratch_first;        // per layer: the layer its buffers are allocated from
  std::vector<uint64_t> held_base;       // per layer: SRAM address of its held constants, if any
  std::vector<HeldRegion> held_regions;  // nodes whose strips hold their constants (as placed:
  std::vector<uint64_t> held_addr;       // from `first`, which may be earlier than the strip's)
  std::vector<uint64_t> sram_in_use;     // per layer: bytes allocated while it runs
  int prefetched = 0;  // layers whose scratch is allocated from the previous layer on
                       // (AllocateEarly may place more, and earlier still)
  uint64_t sram_peak = 0;                // highest SRAM byte used + 1
  int evicted = 0;                       // buffers sent back to DRAM by step 3
};

LayerResidency ResidencyOf(const Network& net, const NetLayer& layer,
                           const std::vector<bool>& on_chip);

StatusOr<OnChipPlan> PlanOnChip(const spec::NpuConfig& config, const Network& net,
                                const std::vector<Lifetime>& lifetimes,
                                const OnChipOptions& options);

}  // namespace npu::compiler
