// The DRAM side of a compiled network, as offsets from the data base (the end of the
// instruction words, known only after emission; the program builder relocates):
//   per-layer constant segments | the activation arena
// The arena holds every buffer that is not on chip (graph inputs and outputs included: the host
// writes them before and reads them after the run), placed greedy-by-size over their lifetimes
// (memory/interval_planner.h), 64-byte aligned.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/lower/network.h"
#include "compiler/network/layer_emission.h"

namespace npu::compiler {

inline constexpr uint64_t kDramAlignBytes = 64;

struct ModelDramPlan {
  std::vector<uint64_t> constants;  // per layer
  uint64_t constants_bytes = 0;
  uint64_t arena = 0;              // where the arena starts
  std::vector<uint64_t> buffers;   // per buffer (off-chip ones)
  uint64_t arena_bytes = 0;        // its peak
  uint64_t arena_lower_bound = 0;  // most off-chip bytes alive at any layer
  uint64_t end = 0;
};

ModelDramPlan PlanModelDram(const Network& net, const std::vector<Lifetime>& lifetimes,
                            const std::vector<bool>& on_chip,
                            const std::vector<LayerConstants>& constants);

}  // namespace npu::compiler
