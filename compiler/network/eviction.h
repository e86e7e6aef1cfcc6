// Which on-chip buffer goes back to DRAM when the SRAM placement overflows (on_chip_plan.h, step
// 4), and taking back those that were not needed: the cheapest in DRAM traffic for the room it
// makes, not the largest. The largest sent resnext50_32x4d's layer2 sums (one 401 KB buffer
// that four blocks' joins write in place, read by every block) to DRAM for the 41 KB one strip
// of layer2.0 lacked, where a 57 KB strip intermediate, written and read once, makes room: its
// kept-halo variant 36.3 -> 31.0 MB of DRAM traffic and 4,536,788 -> 4,509,078 cycles, now the
// variant kept (full-size export, default config, --timing-only --no-tuning); the other corpus
// CNNs unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "compiler/lower/network.h"
#include "hw/spec/status.h"

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

// The plan of the buffers `on_chip` (per buffer) once it fits: `attempt(on_chip, evicted, victim)`
// gives the plan of those on chip (StatusOr<std::optional<Plan>>), or nothing and a buffer to
// send back to DRAM (`victim`; `evicted`: how many were sent back so far). Buffers go back one
// at a time until a plan fits; then those sent back before the last are taken back, all together,
// if a plan still fits with them. The overflow one was sent back for may have been another's:
// lraspp_mobilenet_v3_large's block 13 sent its seven channel groups' intermediates back (1.4 MB
// of traffic) before the 122 KB strip of block 12 whose room they were short of. (One at a time,
// the latest first, found no more and took its 15 variants 6 -> 15 s to compile.)
template <class Plan, class Attempt>
StatusOr<Plan> SendBackUntilFits(std::vector<bool> on_chip, Attempt attempt) {
  std::vector<int> evicted;
  for (;;) {
    int victim = -1;
    NPU_ASSIGN_OR_RETURN(std::optional<Plan> plan,
                         attempt(std::as_const(on_chip), int(evicted.size()), victim));
    if (!plan) {
      NPU_CHECK(victim >= 0 && on_chip.at(victim));  // nothing on chip always fits
      on_chip[victim] = false;
      evicted.push_back(victim);
      continue;
    }
    if (evicted.size() < 2) return *std::move(plan);
    for (size_t k = 0; k + 1 < evicted.size(); ++k) on_chip[evicted[k]] = true;
    StatusOr<std::optional<Plan>> all_but_last = attempt(std::as_const(on_chip), 1, victim);
    return all_but_last.ok() && *all_but_last ? **std::move(all_but_last) : *std::move(plan);
  }
}

}  // namespace npu::compiler
