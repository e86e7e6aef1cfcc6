// Held constants: which strips' weights and records stay in SRAM (held_constants.h).
#include "compiler/network/held_constants.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "compiler/network/on_chip_plan.h"
#include "compiler/network/residency.h"
#include "compiler/tiling/tiling_search.h"

namespace npu::compiler {
namespace {

// Per node of a fused group, its strips (layer indices, in order) that are single convolutions
// with weights of their own.
std::map<std::pair<std::string, uint32_t>, std::vector<int>> StripsByNode(const Network& net) {
  std::map<std::pair<std::string, uint32_t>, std::vector<int>> strips;
  for (size_t i = 0; i < net.layers.size(); ++i) {
    const NetLayer& l = net.layers[i];
    const auto* parts = l.conv_parts();
    if (l.fused_group.empty() || parts == nullptr || parts->size() != 1 ||
        parts->front().conv.activation_weights) {
      continue;
    }
    strips[{l.fused_group, l.group_node}].push_back(int(i));
  }
  return strips;
}

bool SameSlots(const SlotBuffer& a, const SlotBuffer& b) {
  return a.base == b.base && a.slot_bytes == b.slot_bytes && a.slots == b.slots;
}

// One node's strips with held tilings.
struct Candidate {
  std::vector<int> layers;
  std::vector<LayerSchedule> schedules;  // per strip
  uint64_t bytes = 0;                    // the region, stripe-aligned
  uint64_t Saved() const { return bytes * (layers.size() - 1); }
};

// Every strip's tiling with weights and records resident and held, in the first strip's
// output- and input-channel tiles (so they lie alike in SRAM), chosen by the search within the
// scratch its tiling took (which held its weights and records): if every strip has one.
std::optional<Candidate> HeldTilings(const spec::NpuConfig& config, const Network& net,
                                     const std::vector<bool>& on_chip,
                                     const std::vector<LayerSchedule>& schedules,
                                     const std::vector<int>& layers) {
  const auto* first = std::get_if<TilingChoice>(&schedules[layers.front()].choice);
  if (first == nullptr) return std::nullopt;
  Candidate c{layers, {}, 0};
  std::optional<SramPlan> layout;
  for (size_t k = 0; k < layers.size(); ++k) {
    const NetLayer& layer = net.layers[layers[k]];
    const LayerResidency r = ResidencyOf(net, layer, on_chip);
    ConvTiling held = first->tiling;
    held.held = k == 0 ? HeldConstants::kLoads : HeldConstants::kReuses;
    const uint64_t scratch = schedules[layers[k]].scratch_bytes;
    if (scratch == 0) return std::nullopt;  // (0 would be the whole SRAM)
    TilingContext context = ConvLayerContext(net, layer, r, scratch);
    context.held = &held;
    StatusOr<TilingChoice> chosen =
        ChooseTiling(config, layer.conv_parts()->front().conv, context);
    if (!chosen.ok()) return std::nullopt;
    const SramPlan& plan = chosen->plan;
    if (layout && (!SameSlots(layout->weights, plan.weights) ||
                   !SameSlots(layout->params, plan.params))) {
      return std::nullopt;
    }
    layout = plan;
    LayerSchedule s;
    s.scratch_bytes = plan.sram_bytes;
    s.choice = *std::move(chosen);
    c.schedules.push_back(std::move(s));
  }
  c.bytes = AlignUp(layout->held_bytes, StripeBytes(config));
  return c;
}

}  // namespace

Holding HoldConstants(const spec::NpuConfig& config, const Network& net,
                      const std::vector<bool>& on_chip, std::vector<LayerSchedule> schedules,
                      const std::vector<uint64_t>& live) {
  Holding h;
  h.schedules = std::move(schedules);
  h.region_of.assign(net.layers.size(), -1);
  std::vector<Candidate> candidates;
  for (const auto& [node, layers] : StripsByNode(net)) {
    if (layers.size() < 2) continue;
    if (auto c = HeldTilings(config, net, on_chip, h.schedules, layers)) {
      candidates.push_back(*std::move(c));
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) {
                     return a.Saved() > b.Saved() ||
                            (a.Saved() == b.Saved() && a.layers[0] < b.layers[0]);
                   });
  const uint64_t sram = config.sram().size_bytes(), stripe = StripeBytes(config);
  std::vector<uint64_t> held(net.layers.size(), 0);  // per layer: the regions alive there
  for (Candidate& c : candidates) {
    const int first = c.layers.front(), last = c.layers.back();
    // The scratch of layer j, with the candidate's schedules for its strips.
    auto scratch = [&](int j) {
      const auto strip = std::find(c.layers.begin(), c.layers.end(), j);
      return AlignUp(strip != c.layers.end() ? c.schedules[strip - c.layers.begin()].scratch_bytes
                                             : h.schedules[j].scratch_bytes,
                     stripe);
    };
    // At layer j, the next layer's scratch too (allocated from j on: prefetch).
    bool fits = true;
    for (int j = first; j <= last && fits; ++j) {
      const uint64_t next = j + 1 < int(net.layers.size()) ? scratch(j + 1) : 0;
      fits = live[j] + held[j] + c.bytes + scratch(j) + next <= sram;
    }
    if (!fits) continue;
    for (int j = first; j <= last; ++j) held[j] += c.bytes;
    for (size_t k = 0; k < c.layers.size(); ++k) {
      h.schedules[c.layers[k]] = std::move(c.schedules[k]);
      h.region_of[c.layers[k]] = int(h.regions.size());
    }
    h.regions.push_back({first, last, c.bytes});
  }
  return h;
}

void DropLastRegion(Holding& holding, const std::vector<LayerSchedule>& plain) {
  const int last = int(holding.regions.size()) - 1;
  for (size_t i = 0; i < holding.region_of.size(); ++i) {
    if (holding.region_of[i] != last) continue;
    holding.region_of[i] = -1;
    holding.schedules[i] = plain[i];
  }
  holding.regions.pop_back();
}

}  // namespace npu::compiler
