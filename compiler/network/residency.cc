// Residency: which buffers stay on chip.
#include "compiler/network/residency.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "compiler/network/eviction.h"
#include "compiler/network/layer_schedule.h"

namespace npu::compiler {
namespace {

// A layer's operands: (value id, index), index 0/1 for inputs and -1 for the output.
std::vector<std::pair<int, int>> Operands(const NetLayer& l) {
  std::vector<std::pair<int, int>> ops;
  for (size_t i = 0; i < l.inputs.size(); ++i) ops.emplace_back(l.inputs[i], int(i));
  ops.emplace_back(l.output, -1);
  return ops;
}

// Operands beyond the second (only CPU layers have them) are never on chip.
void Set(LayerResidency& r, int index, bool value) {
  if (index < 2) (index < 0 ? r.output : r.input[index]) = value;
}
bool Get(const LayerResidency& r, int index) {
  return index < 0 ? r.output : index < 2 && r.input[index];
}

// What one layer tolerates on chip (from the candidates), and its reserve: whichever way its
// operands end up, and once every operand it allows on chip is.
struct LayerView {
  LayerResidency allowed;
  uint64_t reserve = 0, reserve_allowed = 0;
};

// The estimate of `layer` with the operands of `r` on chip, or nothing if it does not fit.
std::optional<TilingOutlook> Look(const spec::NpuConfig& c, const Network& net, const NetLayer& l,
                                  const LayerResidency& r, TilingSurveyMemo& memo) {
  uint64_t on_chip = 0;
  for (const auto& [value, index] : Operands(l)) {
    if (Get(r, index)) on_chip += AlignUp(net.value(value).bytes(), StripeBytes(c));
  }
  if (on_chip >= c.sram().size_bytes()) return std::nullopt;
  StatusOr<TilingOutlook> o = SurveyLayer(c, net, l, r, c.sram().size_bytes() - on_chip, memo);
  if (!o.ok()) return std::nullopt;
  return *o;
}

StatusOr<LayerView> ViewLayer(const spec::NpuConfig& c, const Network& net, const NetLayer& l,
                              const std::vector<bool>& candidate, TilingSurveyMemo& memo) {
  NPU_ASSIGN_OR_RETURN(const TilingOutlook off, SurveyLayer(c, net, l, {}, 0, memo));
  LayerResidency all;
  for (const auto& [value, index] : Operands(l)) {
    Set(all, index, candidate[net.value(value).buffer] && CanBeOnChip(net, l, index));
  }
  LayerResidency out_only;
  out_only.output = all.output;
  LayerView view{{}, off.sram_bytes, off.sram_bytes};
  // Every candidate on chip, else only the output (it constrains tiles least), else none.
  for (const LayerResidency& r : {all, out_only}) {
    const std::optional<TilingOutlook> on = Look(c, net, l, r, memo);
    if (!on || on->cycles > off.cycles * kOnChipSlowdown) continue;
    view.allowed = r;
    view.reserve = std::max(off.sram_bytes, on->sram_bytes);
    view.reserve_allowed = on->sram_bytes;
    break;
  }
  return view;
}

}  // namespace

uint64_t StripeBytes(const spec::NpuConfig& c) {
  return uint64_t{c.sram().banks()} * c.sram().bank_width_bytes();
}

uint64_t AlignUp(uint64_t value, uint64_t align) { return (value + align - 1) / align * align; }

StatusOr<ResidencyDecision> DecideResidency(const spec::NpuConfig& c, const Network& net,
                                            const std::vector<Lifetime>& life, bool allow_on_chip) {
  const size_t layers = net.layers.size(), buffers = net.buffers.size();
  const uint64_t sram = c.sram().size_bytes(), stripe = StripeBytes(c);
  // 1. Candidates by what the buffers are, then by what their layers tolerate.
  std::vector<bool> candidate(buffers);
  for (size_t b = 0; b < buffers; ++b) {
    const NetBuffer& nb = net.buffers[b];
    candidate[b] = allow_on_chip && !nb.graph_input && !nb.graph_output && !nb.in_dram &&
                   nb.bytes > 0 && AlignUp(nb.bytes, stripe) < sram;
  }
  ResidencyDecision d{std::vector<bool>(buffers, false), std::vector<uint64_t>(layers, 0)};
  std::vector<uint64_t> reserve_allowed(layers, 0);
  std::vector<std::vector<int>> allowed(layers);  // per layer, the buffers it allows on chip
  std::vector<bool> eligible = candidate;
  std::vector<bool> pixels(buffers, true);  // every value its layers access is one pixel
  TilingSurveyMemo memo(c);  // repeated layers are surveyed once (in the process)
  for (size_t i = 0; i < layers; ++i) {
    const NetLayer& l = net.layers[i];
    NPU_ASSIGN_OR_RETURN(const LayerView view, ViewLayer(c, net, l, candidate, memo));
    d.reserve[i] = view.reserve;  // 2.
    reserve_allowed[i] = view.reserve_allowed;
    for (const auto& [value, index] : Operands(l)) {
      const int b = net.value(value).buffer;
      pixels[b] = pixels[b] && net.value(value).h == 1 && net.value(value).w == 1;
      if (!Get(view.allowed, index)) eligible[b] = false;
      if (Get(view.allowed, index)) allowed[i].push_back(b);
    }
  }
  // 3. Greedy, in two orders; the decision saving more traffic is kept.
  const std::vector<uint64_t> traffic = OffChipTraffic(net);
  // A layer whose allowed operands are all on chip (b among them) reserves what its tiling needs
  // with them there: a pool's 404 KB of DRAM bands become none (inception_v3's Mixed_5d). An
  // eligible operand of one pixel counts as there: the greedy, which decides the most traffic
  // first, decides a global pool's input long before its output (a vector, which fits), and
  // would reserve for the pool what it needs with its input in DRAM, all of it (lraspp's
  // 33x33x672 squeeze-and-excitation blocks: 732 KB). Returns the traffic the buffers it keeps
  // (in `on_chip`) save.
  const auto greedy = [&](const std::vector<size_t>& order, std::vector<bool>& on_chip) {
    const auto reserve = [&](int i, size_t b) {
      const auto there = [&](int k) {
        return on_chip[k] || k == int(b) || (eligible[k] && pixels[k]);
      };
      const bool all =
          !allowed[i].empty() && std::all_of(allowed[i].begin(), allowed[i].end(), there);
      return all ? reserve_allowed[i] : d.reserve[i];
    };
    std::vector<uint64_t> live(layers, 0);
    uint64_t saved = 0;
    for (size_t b : order) {
      if (!eligible[b]) continue;
      const uint64_t bytes = AlignUp(net.buffers[b].bytes, stripe);
      bool fits = true;
      for (int i = life[b].first; i <= life[b].last && fits; ++i) {
        fits = live[i] + bytes + reserve(i, b) <= sram;
      }
      if (!fits) continue;
      for (int i = life[b].first; i <= life[b].last; ++i) live[i] += bytes;
      on_chip[b] = true;
      saved += traffic[b];
    }
    return saved;
  };
  std::vector<size_t> order(buffers);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return traffic[a] > traffic[b]; });
  const uint64_t saved = greedy(order, d.on_chip);
  const auto density = [&](size_t b) {  // traffic saved per byte of SRAM and layer alive
    const double bytes = double(AlignUp(std::max<uint64_t>(1, net.buffers[b].bytes), stripe));
    return double(traffic[b]) / (bytes * double(std::max(1, life[b].last - life[b].first + 1)));
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return density(a) > density(b); });
  std::vector<bool> dense(buffers, false);
  if (greedy(order, dense) > saved) d.on_chip = std::move(dense);
  return d;
}

}  // namespace npu::compiler
