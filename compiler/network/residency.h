// Step 1 of the on-chip plan (on_chip_plan.h): which buffers stay in SRAM between layers.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/lower/network.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct ResidencyDecision {
  std::vector<bool> on_chip;      // per buffer
  std::vector<uint64_t> reserve;  // per layer: scratch its near-best tiling needs
};

// 1. Eligible buffers: intermediate (not graph inputs or outputs) and not kept in DRAM
//    (NetBuffer::in_dram), used in place by every layer that touches them (CanBeOnChip), and
//    whose layers estimate no more than kOnChipSlowdown slower with them on chip than in DRAM.
// 2. Reserve per layer: the largest scratch among the residency variants it may end up with.
// 3. Greedy, in two orders, keeping the decision that saves more traffic: by the DRAM traffic a
//    buffer saves, and by that per byte of SRAM and layer it is alive (most traffic first keeps a
//    large buffer alive across many layers that crowds out shorter-lived ones saving more
//    together: on `edge`, mobilenet_v3_large -7.2 % cycles, resnet50 -1.4 %; network-compiler.md
//    section 3). The traffic is OffChipTraffic (the measure eviction uses: each access's bytes,
//    so a concatenation's part writes count their parts, not the whole buffer). Each order keeps
//    a buffer if at every layer it is alive the aligned on-chip bytes plus the layer's reserve
//    fit the SRAM; the reserve of a layer whose operands it allows on chip would all be
//    there (an eligible one-pixel operand counting as there) is what its tiling needs with them
//    there. Measured (full-size exports, default config, --timing-only --no-tuning): inception_v3's
//    Mixed_5x pools (whose tilings with their operands in DRAM want 404 KB of long bands) now
//    keep them on chip, DRAM 1.21x -> 1.14x its least and 0.08 % fewer cycles; googlenet -0.25 %
//    cycles, DRAM 1.08x -> 1.02x; lraspp -0.9 %; densenet121 +0.5 %, resnext50_32x4d +0.3 %.
StatusOr<ResidencyDecision> DecideResidency(const spec::NpuConfig& config, const Network& net,
                                            const std::vector<Lifetime>& lifetimes,
                                            bool allow_on_chip);

// The estimate is a single layer's, so it cannot see the DRAM traffic (and its time) an
// activation sent off chip costs the layers around it: at 2 %, regnet_y_400mf's block2 1x1
// convolutions (104 channels) sent their inputs to DRAM, 679,723 cycles and 1.66x its least DRAM
// traffic; at 5 % (and 10 %) they stay: 647,891 cycles, 1.15x (full-size export, default config,
// --timing-only --no-tuning; the other corpus CNNs unchanged).
inline constexpr double kOnChipSlowdown = 1.05;

uint64_t StripeBytes(const spec::NpuConfig& config);
uint64_t AlignUp(uint64_t value, uint64_t align);

}  // namespace npu::compiler
