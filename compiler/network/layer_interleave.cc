// Interleaving consecutive NPU layers (layer_interleave.h).
#include "compiler/network/layer_interleave.h"

#include <algorithm>
#include <optional>

#include "compiler/schedule/interleave.h"
#include "compiler/tiling/candidate_cost.h"

namespace npu::compiler {
namespace {

// Cycles of a stretch of the stream replayed exactly on its own, with its own tokens
// (remembered: candidate_cost.h).
uint64_t ReplayCycles(const spec::NpuConfig& c, const std::vector<spec::Instruction>& insns) {
  return CandidateCost(c, insns, /*exact=*/true).cycles;
}

template <typename T>
std::vector<T> Slice(const std::vector<T>& v, size_t begin, size_t end) {
  return {v.begin() + begin, v.begin() + end};
}

}  // namespace

int InterleaveLayers(const spec::NpuConfig& c, std::vector<spec::Instruction>& insns,
                     std::vector<uint32_t>& layer_of, const std::vector<bool>& on_cpu) {
  int interleaved = 0;
  for (uint32_t layer = 1; layer < on_cpu.size(); ++layer) {
    if (on_cpu[layer] || on_cpu[layer - 1]) continue;
    // The layer is still contiguous at [begin, end); the one before it starts at `start`.
    const auto begin_it = std::find(layer_of.begin(), layer_of.end(), layer);
    const auto start_it = std::find(layer_of.begin(), layer_of.end(), layer - 1);
    if (begin_it == layer_of.end() || start_it == layer_of.end()) continue;
    const size_t begin = begin_it - layer_of.begin(), start = start_it - layer_of.begin();
    const size_t end =
        std::find_if(begin_it, layer_of.end(), [&](uint32_t l) { return l != layer; }) -
        layer_of.begin();
    const std::vector<spec::Instruction> earlier = Slice(insns, start, begin);
    const std::vector<spec::Instruction> later = Slice(insns, begin, end);
    // Replayed with the layer after, as it stands: an order that finishes the pair sooner but
    // holds up what comes next is no gain (mobilenet_v2 on the server config: 237,384 cycles
    // judged by the pair alone, 231,154 with the next layer, 232,316 with neither this nor the
    // outputs allocated early, on_chip_plan.cc).
    size_t next_end = end;
    if (end < layer_of.size() && !on_cpu[layer_of[end]]) {
      const uint32_t next = layer_of[end];
      next_end = std::find_if(layer_of.begin() + end, layer_of.end(),
                              [&](uint32_t l) { return l != next; }) -
                 layer_of.begin();
    }
    const std::vector<spec::Instruction> following = Slice(insns, end, next_end);
    auto with_following = [&](std::vector<spec::Instruction> v) {
      v.insert(v.end(), following.begin(), following.end());
      return v;
    };
    // The order by conflicts alone, and spread over the earlier layer: the faster, if faster
    // than none (replayed only once an order moves something).
    std::optional<uint64_t> best;
    std::vector<spec::Instruction> chosen;
    std::vector<uint32_t> chosen_layers;
    for (bool spread : {false, true}) {
      const std::vector<uint32_t> order = InterleaveOrder(earlier, later, spread);
      std::vector<spec::Instruction> merged;
      std::vector<uint32_t> merged_layers;
      for (uint32_t k : order) {
        merged.push_back(insns[start + k]);
        merged_layers.push_back(layer_of[start + k]);
      }
      if (merged_layers == Slice(layer_of, start, end)) continue;  // nothing moved
      if (!best) best = ReplayCycles(c, Slice(insns, start, next_end));
      const uint64_t cycles = ReplayCycles(c, with_following(merged));
      if (cycles >= *best) continue;
      best = cycles;
      chosen = std::move(merged);
      chosen_layers = std::move(merged_layers);
    }
    if (chosen.empty()) continue;
    std::copy(chosen.begin(), chosen.end(), insns.begin() + start);
    std::copy(chosen_layers.begin(), chosen_layers.end(), layer_of.begin() + start);
    ++interleaved;
  }
  return interleaved;
}

}  // namespace npu::compiler
