// Which on-chip buffer goes back to DRAM when the SRAM placement overflows (on_chip_plan.h, step
// 4): the cheapest in DRAM traffic for the room it makes, not the largest. The largest sent
// resnext50_32x4d's layer2 sums (one 401 KB buffer that four blocks' joins write in place, read
// by every block) to DRAM for the 41 KB one strip of layer2.0 lacked, where a 57 KB strip
// intermediate, written and read once, makes room: its kept-halo variant 36.3 -> 31.0 MB of DRAM
// traffic and 4,536,788 -> 4,509,078 cycles, now the variant kept (full-size export, default
// config, --timing-only --no-tuning); the other corpus CNNs unchanged.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/lower/network.h"

namespace npu::compiler {

// Per buffer, the DRAM bytes its layers' accesses would move were it off chip: every read and
// every write of each of its values, once.
std::vector<uint64_t> OffChipTraffic(const Network& net);

struct EvictionCandidate {
  int buffer = -1;
  uint64_t bytes = 0;    // what evicting it frees
  uint64_t traffic = 0;  // what evicting it costs (OffChipTraffic)
};

// Of the candidates freeing at least `need` bytes, the one costing the fewest DRAM bytes per
// byte freed, the largest of equals; if none frees that much, the largest; -1 if there are none.
int CheapestToEvict(const std::vector<EvictionCandidate>& candidates, uint64_t need);

}  // namespace npu::compiler
