// The on-chip plan: residency, tiling, SRAM placement (steps in on_chip_plan.h).
#include "compiler/network/on_chip_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "compiler/memory/interval_planner.h"
#include "compiler/network/eviction.h"
#include "compiler/network/held_constants.h"
#include "compiler/network/residency.h"

namespace npu::compiler {
namespace {

class Planner {
 public:
  Planner(const spec::NpuConfig& c, const Network& net, const std::vector<Lifetime>& life,
          const std::map<std::string, ConvTiling>* tilings, bool hold_constants)
      : c_(c),
        net_(net),
        life_(life),
        tilings_(tilings),
        hold_constants_(hold_constants),
        sram_(c.sram().size_bytes()),
        stripe_(StripeBytes(c)),
        traffic_(OffChipTraffic(net)) {}

  // Step 3 (eviction.h, SendBackUntilFits).
  StatusOr<OnChipPlan> Run(std::vector<bool> on_chip, bool try_prefetch) {
    return SendBackUntilFits<OnChipPlan>(
        std::move(on_chip), [&](const std::vector<bool>& chip, int evicted, int& victim) {
          return Attempt(chip, try_prefetch, evicted, victim);
        });
  }

 private:
  // The plan of `on_chip` if it fits, else nothing and a buffer to send back (`victim`).
  StatusOr<std::optional<OnChipPlan>> Attempt(const std::vector<bool>& on_chip, bool try_prefetch,
                                              int evicted, int& victim) {
    // Step 2: tile every layer; a layer that no longer fits sends a buffer back to DRAM.
    std::vector<LayerSchedule> schedules;
    int failed = -1;
    NPU_TRY(ScheduleAll(on_chip, schedules, failed));
    victim = failed >= 0 ? LargestAlive(on_chip, failed, failed) : -1;
    if (failed >= 0 && victim < 0) return Retile(on_chip, failed);
    // Step 3: held constants; step 4: place, every layer's scratch from the layer before on
    // (if try_prefetch), with the held regions (given up one by one, the least saving first),
    // then without; then, likewise, with prefetch only where it fits.
    Holding plain{schedules, {}, std::vector<int>(schedules.size(), -1)};
    Holding held = failed < 0 && hold_constants_
                       ? HoldConstants(c_, net_, on_chip, schedules, LiveBytes(on_chip))
                       : Holding{};
    for (bool where_fits : {false, true}) {
      if (failed >= 0) break;
      for (Holding h = held; !h.regions.empty(); DropLastRegion(h, schedules)) {
        if (auto p = Place(on_chip, h, try_prefetch, where_fits, evicted, nullptr)) return p;
      }
      int* overflow = where_fits || !try_prefetch ? &victim : nullptr;
      if (auto p = Place(on_chip, plain, try_prefetch, where_fits, evicted, overflow)) return p;
      if (!try_prefetch) break;
    }
    return std::optional<OnChipPlan>();
  }

  std::vector<uint64_t> LiveBytes(const std::vector<bool>& on_chip) const {
    std::vector<uint64_t> live;
    for (size_t i = 0; i < net_.layers.size(); ++i) live.push_back(Live(on_chip, int(i)));
    return live;
  }

  uint64_t Live(const std::vector<bool>& on_chip, int layer) const {
    uint64_t bytes = 0;
    for (size_t b = 0; b < on_chip.size(); ++b) {
      if (on_chip[b] && life_[b].first <= layer && layer <= life_[b].last) {
        bytes += AlignUp(net_.buffers[b].bytes, stripe_);
      }
    }
    return bytes;
  }

  Status ScheduleAll(const std::vector<bool>& on_chip, std::vector<LayerSchedule>& out,
                     int& failed) {
    for (size_t i = 0; i < net_.layers.size(); ++i) {
      const LayerResidency r = ResidencyOf(net_, net_.layers[i], on_chip);
      const uint64_t budget = sram_ - Live(on_chip, int(i));
      const auto key = std::make_tuple(i, r.input[0], r.input[1], r.output, budget);
      auto it = cache_.find(key);
      if (it == cache_.end()) {
        StatusOr<LayerSchedule> s =
            ScheduleLayer(c_, net_, net_.layers[i], r, budget, Preferred(net_.layers[i]));
        if (!s.ok() && Live(on_chip, int(i)) > 0) {
          failed = int(i);
          return Status::Ok();
        }
        if (!s.ok()) return s.status();
        it = cache_.emplace(key, *std::move(s)).first;
      }
      out.push_back(it->second);
    }
    return Status::Ok();
  }

  const ConvTiling* Preferred(const NetLayer& layer) const {
    if (tilings_ == nullptr) return nullptr;
    const auto it = tilings_->find(layer.name);
    return it == tilings_->end() ? nullptr : &it->second;
  }

  // The error of a layer that does not fit even with all of the SRAM.
  Status Retile(const std::vector<bool>& on_chip, int layer) const {
    return ScheduleLayer(c_, net_, net_.layers[layer],
                         ResidencyOf(net_, net_.layers[layer], on_chip), sram_)
        .status();
  }

  // Buffers first (empty if off chip), then each layer's scratch, then the held regions.
  std::vector<PlanItem> Items(const std::vector<bool>& on_chip, const Holding& holding,
                              const std::vector<bool>& prefetch) const {
    const std::vector<LayerSchedule>& schedules = holding.schedules;
    std::vector<PlanItem> items;
    for (size_t b = 0; b < on_chip.size(); ++b) {
      items.push_back(on_chip[b] ? PlanItem{AlignUp(net_.buffers[b].bytes, stripe_), life_[b].first,
                                            life_[b].last}
                                 : PlanItem{});
    }
    for (size_t i = 0; i < schedules.size(); ++i) {
      const int first = prefetch[i] && i > 0 ? int(i) - 1 : int(i);
      items.push_back({AlignUp(schedules[i].scratch_bytes, stripe_), first, int(i)});
    }
    for (const HeldRegion& r : holding.regions) items.push_back({r.bytes, r.first, r.last});
    return items;
  }

  // The plan if everything fits the SRAM, every layer's scratch allocated from the layer before
  // on if `prefetch`; or, `where_fits`, then for fewer layers until it fits or none is left
  // (LessPrefetch). Else nothing, and `victim` (if given) is a buffer to send back to DRAM.
  std::optional<OnChipPlan> Place(const std::vector<bool>& on_chip, Holding& holding,
                                  bool prefetch, bool where_fits, int evicted, int* victim) const {
    std::vector<bool> early(holding.schedules.size(), prefetch);
    for (;;) {
      std::vector<PlanItem> items = Items(on_chip, holding, early);
      ArenaPlan placed = PlanArena(items, stripe_);
      if (placed.peak <= sram_) {
        if (prefetch) AllocateEarly(on_chip, items, placed);
        return Finish(on_chip, std::move(holding), items, placed, early, evicted);
      }
      if (!where_fits || !LessPrefetch(items, placed, early)) {
        if (victim != nullptr) *victim = Victim(on_chip, items, placed);
        return std::nullopt;
      }
    }
  }

  // Stops the prefetch of the layers whose scratch, allocated from the layer before on, is alive
  // where an item lies beyond the SRAM; if there are none, of every layer. False if no layer
  // prefetches. wide_resnet50_2, resnext50_32x4d, vgg11 and lraspp placed no layer's scratch
  // early when every layer's did not fit.
  bool LessPrefetch(const std::vector<PlanItem>& items, const ArenaPlan& placed,
                    std::vector<bool>& prefetch) const {
    if (std::none_of(prefetch.begin(), prefetch.end(), [](bool p) { return p; })) return false;
    bool fewer = false;
    for (size_t i = 0; i < items.size(); ++i) {
      if (!items[i].alive() || placed.offsets[i] + items[i].bytes <= sram_) continue;
      // Layer l's scratch allocated early is alive at l - 1.
      const int end = std::min(items[i].last + 1, int(prefetch.size()) - 1);
      for (int l = std::max(1, items[i].first + 1); l <= end; ++l) {
        fewer |= prefetch[l];
        prefetch[l] = false;
      }
    }
    if (!fewer) std::fill(prefetch.begin(), prefetch.end(), false);
    return true;
  }

  // Each on-chip buffer, in order, allocated from the layer before the one writing it on, then
  // each layer's buffers from two layers before it on (one with prefetch alone), where the SRAM
  // still holds everything. A layer's output then shares no bytes with what the layer before
  // reads and writes (its buffers, its inputs), so interleaving (layer_interleave.h) can start
  // the layer while that one still runs, where a shared byte would make the layer's first write
  // wait for the other's last access; and its first loads (weights) can start while the layers
  // before it still run, which interleaving overlaps by more than one (mnasnet1_0's classifier
  // waited 1.3 k cycles for bytes a layer two before still used). Measured (default config,
  // --timing-only --no-tuning): the outputs took mobilenet_v2 420,757 -> 411,745 cycles (with
  // row bands, tiling_search.h), the buffers 411,745 -> 403,931; mnasnet1_0 453,522 -> 450,724,
  // efficientnet_b0 721,675 -> 717,296 (full-size exports); a third layer back gains nothing.
  void AllocateEarly(const std::vector<bool>& on_chip, std::vector<PlanItem>& items,
                     ArenaPlan& placed) const {
    for (size_t i = 0; i < items.size(); ++i) {
      const bool buffer = i < on_chip.size();
      if ((buffer && !on_chip[i]) || !items[i].alive() || items[i].first == 0) continue;
      --items[i].first;
      ArenaPlan early = ReplanArena(items, stripe_, placed, i);
      if (early.peak <= sram_) {
        placed = std::move(early);
      } else {
        ++items[i].first;
      }
    }
  }

  // Whether buffer b is on chip and alive somewhere in [first, last].
  bool AliveIn(const std::vector<bool>& on_chip, size_t b, int first, int last) const {
    return on_chip[b] && life_[b].first <= last && first <= life_[b].last;
  }

  // The largest on-chip buffer alive somewhere in [first, last], or -1.
  int LargestAlive(const std::vector<bool>& on_chip, int first, int last) const {
    int best = -1;
    for (size_t b = 0; b < on_chip.size(); ++b) {
      if (!AliveIn(on_chip, b, first, last)) continue;
      if (best < 0 || net_.buffers[b].bytes > net_.buffers[best].bytes) best = int(b);
    }
    return best;
  }

  // An on-chip buffer alive where an item was placed beyond the SRAM: the cheapest to evict
  // (eviction.h) of those that make room for the item's overflow.
  int Victim(const std::vector<bool>& on_chip, const std::vector<PlanItem>& items,
             const ArenaPlan& placed) const {
    for (size_t i = 0; i < items.size(); ++i) {
      if (!items[i].alive() || placed.offsets[i] + items[i].bytes <= sram_) continue;
      std::vector<EvictionCandidate> alive;
      for (size_t b = 0; b < on_chip.size(); ++b) {
        if (AliveIn(on_chip, b, items[i].first, items[i].last)) {
          alive.push_back({int(b), AlignUp(net_.buffers[b].bytes, stripe_), traffic_[b]});
        }
      }
      const int victim = CheapestToEvict(alive, placed.offsets[i] + items[i].bytes - sram_);
      if (victim >= 0) return victim;
    }
    return -1;
  }

  OnChipPlan Finish(std::vector<bool> on_chip, Holding holding, const std::vector<PlanItem>& items,
                    const ArenaPlan& placed, const std::vector<bool>& prefetch,
                    int evicted) const {
    OnChipPlan plan;
    std::vector<LayerSchedule>& schedules = holding.schedules;
    const size_t buffers = on_chip.size(), layers = schedules.size();
    const auto scratch = placed.offsets.begin() + buffers, held = scratch + layers;
    plan.sram_addr.assign(placed.offsets.begin(), scratch);
    plan.scratch_base.assign(scratch, held);
    for (const int region : holding.region_of) {
      plan.held_base.push_back(region < 0 ? 0 : *(held + region));
    }
    for (size_t r = 0; r < holding.regions.size(); ++r) {
      const PlanItem& item = items[buffers + layers + r];
      plan.held_regions.push_back({item.first, item.last, item.bytes});
      plan.held_addr.push_back(*(held + r));
    }
    for (size_t i = 0; i < layers; ++i) plan.scratch_first.push_back(items[buffers + i].first);
    for (size_t i = 0; i < schedules.size(); ++i) {
      uint64_t bytes = 0;
      for (const PlanItem& item : items) {
        if (item.alive() && item.first <= int(i) && int(i) <= item.last) bytes += item.bytes;
      }
      plan.sram_in_use.push_back(bytes);
    }
    plan.on_chip = std::move(on_chip);
    plan.schedules = std::move(schedules);
    plan.prefetched = int(std::count(prefetch.begin() + (prefetch.empty() ? 0 : 1),
                                     prefetch.end(), true));
    plan.sram_peak = placed.peak;
    plan.evicted = evicted;
    return plan;
  }

  const spec::NpuConfig& c_;
  const Network& net_;
  const std::vector<Lifetime>& life_;
  const std::map<std::string, ConvTiling>* tilings_;
  const bool hold_constants_;
  const uint64_t sram_, stripe_;
  const std::vector<uint64_t> traffic_;  // per buffer (OffChipTraffic)
  std::map<std::tuple<size_t, bool, bool, bool, uint64_t>, LayerSchedule> cache_;
};

}  // namespace

LayerResidency ResidencyOf(const Network& net, const NetLayer& layer,
                           const std::vector<bool>& on_chip) {
  LayerResidency r;
  for (size_t i = 0; i < layer.inputs.size() && i < 2; ++i) {
    r.input[i] = on_chip[net.value(layer.inputs[i]).buffer];
  }
  r.output = on_chip[net.value(layer.output).buffer];
  return r;
}

StatusOr<OnChipPlan> PlanOnChip(const spec::NpuConfig& config, const Network& net,
                                const std::vector<Lifetime>& lifetimes,
                                const OnChipOptions& options) {
  NPU_ASSIGN_OR_RETURN(const ResidencyDecision decision,
                       DecideResidency(config, net, lifetimes, options.keep_activations_on_chip));
  return Planner(config, net, lifetimes, options.tilings, options.hold_constants)
      .Run(decision.on_chip, options.prefetch_across_layers);
}

}  // namespace npu::compiler
