// Offline auto-tuning (tuning.h).
#include "compiler/network/tuning.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "compiler/ir/fingerprint.h"
#include "compiler/network/cache_dir.h"
#include "compiler/network/compile_model.h"
#include "compiler/network/parallel_for.h"
#include "compiler/network/image_gemms.h"
#include "compiler/network/layer_schedule.h"
#include "compiler/network/row_strips.h"
#include "compiler/tiling/tiling_estimate.h"
#include "compiler/tiling/tiling_search.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "hw/spec/file_io.h"

namespace npu::compiler {
namespace {

using Json = nlohmann::ordered_json;
constexpr const char* kFormat = "npu-tuning 3";

// Whether the compiler prefers cost `a` to `b` (Preferred), and they differ: an equal one
// keeps what was found first.
bool Better(const CostEstimate& a, const CostEstimate& b) {
  return Preferred(a, b) && (a.cycles != b.cycles || a.dram_bytes() != b.dram_bytes());
}

// The convolution a layer's tiling applies to (a grouped convolution's parts are alike).
std::optional<ConvLayer> ConvOf(const NetLayer& layer) {
  if (const auto* parts = layer.conv_parts()) return parts->front().conv;
  if (const MatMulLayer* matmul = layer.matmul()) return matmul->AsConv();
  return std::nullopt;
}

// The layer's best other tilings by the analytic estimate, with the residency it has (and the
// on-chip input's pixel stride: ConvLayerContext).
std::vector<ConvTiling> Alternatives(const spec::NpuConfig& c, const Network& net,
                                     size_t layer_index, const ConvLayer& conv,
                                     const ModelLayer& layer) {
  const TilingContext context = ConvLayerContext(net, net.layers[layer_index], layer.on_chip, 0);
  std::vector<std::tuple<uint64_t, uint64_t, size_t>> ranked;
  const std::vector<ConvTiling> candidates = CandidateTilings(c, conv, context);
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (layer.conv_tiling && candidates[i] == *layer.conv_tiling) continue;
    if (!FitTiling(c, conv, candidates[i]).ok()) continue;
    const TilingEstimate e = EstimateTiling(c, conv, candidates[i]);
    ranked.emplace_back(e.cycles, e.dram_bytes, i);
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<ConvTiling> out;
  for (size_t k = 0; k < ranked.size() && int(k) < kTuningCandidatesPerLayer; ++k) {
    out.push_back(candidates[std::get<2>(ranked[k])]);
  }
  return out;
}

// Layers with a convolution tiling, the largest gap between prediction and roofline first; not
// a strip reusing held constants, whose tiling the on-chip plan searches again in the first
// strip's channel tiles whatever it is told (held_constants.h).
std::vector<size_t> SearchOrder(const CompiledModel& m) {
  std::vector<size_t> order;
  for (size_t i = 0; i < m.layers.size(); ++i) {
    const std::optional<ConvTiling>& t = m.layers[i].conv_tiling;
    if (t && t->held != HeldConstants::kReuses) order.push_back(i);
  }
  auto gap = [&](size_t i) {
    const ModelLayer& l = m.layers[i];
    return int64_t(l.predicted_cycles) - int64_t(l.roofline_cycles);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return gap(a) > gap(b); });
  return order;
}

Json TilingJson(const ConvTiling& t) {
  return {{"tile_oh", t.tile_oh},
          {"tile_ow", t.tile_ow},
          {"tile_oc", t.tile_oc},
          {"tile_ic", t.tile_ic},
          {"order", LoopOrderName(t.order)},
          {"inputs_resident", t.inputs_resident},
          {"weights_resident", t.weights_resident},
          {"params_resident", t.params_resident},
          {"on_vector", t.on_vector},
          {"subsampled_input", t.subsampled_input}};
}

// Throws nlohmann's exceptions on a missing or mistyped field.
ConvTiling TilingFromJson(const Json& j) {
  ConvTiling t;
  t.tile_oh = j.at("tile_oh").get<uint32_t>();
  t.tile_ow = j.at("tile_ow").get<uint32_t>();
  t.tile_oc = j.at("tile_oc").get<uint32_t>();
  t.tile_ic = j.at("tile_ic").get<uint32_t>();
  const std::string order = j.at("order").get<std::string>();
  if (order == LoopOrderName(LoopOrder::kSpatialOuter)) {
    t.order = LoopOrder::kSpatialOuter;
  } else if (order == LoopOrderName(LoopOrder::kChannelOuter)) {
    t.order = LoopOrder::kChannelOuter;
  } else {
    throw std::invalid_argument(fmt::format("unknown loop order '{}'", order));
  }
  t.inputs_resident = j.at("inputs_resident").get<bool>();
  t.weights_resident = j.at("weights_resident").get<bool>();
  t.params_resident = j.at("params_resident").get<bool>();
  t.on_vector = j.at("on_vector").get<bool>();
  t.subsampled_input = j.value("subsampled_input", false);  // absent before it existed
  if (t.tile_oh == 0 || t.tile_ow == 0 || t.tile_oc == 0 || t.tile_ic == 0) {
    throw std::invalid_argument("a tile size of 0");
  }
  return t;
}

std::string Hex(uint64_t v) { return fmt::format("{:016x}", v); }

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TuningKey MakeTuningKey(std::string compiler, const ir::Graph& quantized,
                        const spec::NpuConfig& config) {
  return {std::move(compiler), ir::GraphFingerprint(quantized), spec::Fingerprint(config)};
}

namespace {

// Band heights to try for a pair besides `current`: whole, half the default, the default, twice.
std::vector<int64_t> BandCandidates(const RowStripPair& pair, int64_t current) {
  std::vector<int64_t> out;
  for (int64_t rows : {int64_t{0}, std::max<int64_t>(1, pair.default_rows / 2),
                       pair.default_rows, 2 * pair.default_rows}) {
    if (rows >= pair.out_rows || rows == current) continue;
    if (std::find(out.begin(), out.end(), rows) == out.end()) out.push_back(rows);
  }
  return out;
}

// The search's state: the options being improved, the best cost, the clock.
struct Search {
  const spec::NpuConfig& config;
  const ir::Graph& quantized;
  double budget_seconds;
  std::chrono::steady_clock::time_point start;
  Tuning& tuning;
  CompileOptions trial;
  const std::function<void(const std::string&)>& progress;
  CostEstimate best;  // trial's

  bool BudgetLeft() const { return Since(start) < budget_seconds; }

  // Compiles the network once per variation of `trial` (on every hardware thread; one not
  // started once the budget is spent) and keeps the best if the compiler prefers it to the
  // best so far (Better), the earliest of equals, the same whatever the schedule. False if the
  // budget ran out.
  bool TryEach(size_t count, const std::function<void(size_t, CompileOptions&)>& vary) {
    std::vector<std::optional<StatusOr<CostEstimate>>> costs(count);
    ParallelFor(count, [&](size_t k) {
      if (!BudgetLeft()) return;
      CompileOptions own = trial;
      vary(k, own);
      const StatusOr<CompiledModel> m = CompileModel(config, quantized, own);
      costs[k] = m.ok() ? StatusOr<CostEstimate>(m->cost) : m.status();
    });
    std::optional<size_t> chosen;
    bool complete = true;
    for (size_t k = 0; k < count; ++k) {
      if (!costs[k]) {
        complete = false;
        continue;
      }
      ++tuning.candidates;
      if (costs[k]->ok() && Better(**costs[k], best)) {
        best = **costs[k];
        chosen = k;
      }
    }
    if (chosen) vary(*chosen, trial);
    if (!complete) tuning.budget_spent = true;
    return complete;
  }
};

// Row strips' band heights, pair by pair in graph order (before the tilings: a pair's strips
// are layers of their own, named by their strip).
void SearchBands(Search& s, const std::vector<RowStripPair>& pairs) {
  const auto split = [&](const RowStripPair& p) {
    const int64_t rows = s.trial.strip_rows[p.consumer];
    return rows > 0 && rows < p.out_rows;
  };
  for (const RowStripPair& pair : pairs) {
    std::vector<int64_t> heights = BandCandidates(pair, s.trial.strip_rows[pair.consumer]);
    // A chain's inner pair (its consumer the producer of a split pair): the chain's strips are its
    // last pair's, so any height of it splits the same; one is tried.
    if (std::any_of(pairs.begin(), pairs.end(), [&](const RowStripPair& next) {
          return next.producer == pair.consumer && split(next);
        })) {
      std::vector<int64_t> kept;
      bool splits = split(pair);
      for (int64_t h : heights) {
        if (h > 0 && splits) continue;
        splits |= h > 0;
        kept.push_back(h);
      }
      heights = std::move(kept);
    }
    if (!s.TryEach(heights.size(), [&](size_t k, CompileOptions& o) {
          o.strip_rows[pair.consumer] = heights[k];
        })) {
      return;
    }
  }
}

// The band heights searched with kept halos if the heuristics kept them, then also without
// (recomputing: resnet50's bands reached 4,254,506 cycles so and 4,277,892 keeping them, from
// 4,293,394; full-size export, default config, --tune 40), the better kept (Better: kept halos
// if as good). Each search starts from the heuristics' heights and cost.
void SearchBandsKeepingHalosOrNot(Search& s, const std::vector<RowStripPair>& pairs,
                                  bool kept_halos) {
  const CompileOptions start = s.trial;
  const CostEstimate baseline = s.best;
  std::optional<std::pair<CompileOptions, CostEstimate>> best;
  for (const bool keep : {true, false}) {
    if (keep && !kept_halos) continue;
    s.trial = start;
    s.trial.keep_halos = keep;
    s.best = baseline;
    SearchBands(s, pairs);
    if (!best || Better(s.best, best->second)) best = {s.trial, s.best};
  }
  s.trial = best->first;
  s.best = best->second;
}

// Convolution tilings, layer by layer from the largest gap to the roofline in `current` (the
// network compiled with s.trial).
void SearchTilings(Search& s, const CompiledModel& current) {
  const std::vector<size_t> order = SearchOrder(current);
  s.tuning.layers = order.size();
  for (size_t i : order) {
    const ModelLayer& layer = current.layers[i];
    const std::optional<ConvLayer> conv = ConvOf(current.network.layers[i]);
    if (!conv) continue;
    const std::vector<ConvTiling> candidates =
        Alternatives(s.config, current.network, i, *conv, layer);
    if (!s.TryEach(candidates.size(), [&](size_t k, CompileOptions& o) {
          o.tilings[layer.name] = candidates[k];
        })) {
      return;
    }
    ++s.tuning.layers_searched;
    if (s.progress) {
      s.progress(fmt::format("tuning {}: {} predicted cycles after {} of {} layers, {:.1f} s",
                             s.tuning.model, s.best.cycles, s.tuning.layers_searched,
                             s.tuning.layers, Since(s.start)));
    }
  }
}

}  // namespace

StatusOr<Tuning> TuneModel(const spec::NpuConfig& config, const ir::Graph& quantized,
                           const CompileOptions& options, double budget_seconds,
                           const TuningKey& key,
                           const std::function<void(const std::string&)>& progress) {
  if (!(budget_seconds > 0)) {
    return InvalidArgument(
        fmt::format("--tune: the time budget must be more than 0 seconds, not {}", budget_seconds));
  }
  const auto start = std::chrono::steady_clock::now();
  // The search compiles for costs and layers, not binaries (CompileOptions::build_program).
  CompileOptions judged = options;
  judged.build_program = false;
  NPU_ASSIGN_OR_RETURN(CompiledModel baseline, CompileModel(config, quantized, judged));
  Tuning tuning;
  tuning.key = key;
  tuning.model = baseline.network.name;
  tuning.baseline_cycles = baseline.cost.cycles;
  tuning.baseline_dram_bytes = baseline.cost.dram_bytes();
  Search search{config, quantized, budget_seconds, start, tuning, judged, progress, baseline.cost};
  // Every pair's band height is stated (the baseline's: the rows of the pairs it split, else
  // whole), so candidates compile once each and the tuning applies as searched.
  const std::vector<RowStripPair> pairs =
      options.row_strips == CompileOptions::RowStrips::kOff
          ? std::vector<RowStripPair>{}
          : RowStripPairs(config, ImageGemmsAsConvolutions(quantized),
                          {.beside_concats = baseline.strips_beside_concats});
  if (!pairs.empty()) {
    search.trial.row_strips = CompileOptions::RowStrips::kOn;
    search.trial.strips_beside_concats = baseline.strips_beside_concats;
    for (const RowStripPair& pair : pairs) {
      if (options.strip_rows.contains(pair.consumer)) continue;
      const auto split = std::find_if(
          baseline.row_strip_groups.begin(), baseline.row_strip_groups.end(),
          [&](const RowStripGroup& g) { return g.Splits(pair.consumer); });
      search.trial.strip_rows[pair.consumer] =
          split == baseline.row_strip_groups.end() ? 0 : split->rows;
    }
    SearchBandsKeepingHalosOrNot(search, pairs, baseline.kept_halos);
    if (progress) {
      progress(fmt::format("tuning {}: {} predicted cycles after the band heights of {} row-strip "
                           "pairs, {:.1f} s",
                           tuning.model, search.best.cycles, pairs.size(), Since(start)));
    }
    if (Better(search.best, baseline.cost)) {
      NPU_ASSIGN_OR_RETURN(baseline, CompileModel(config, quantized, search.trial));
    }
  }
  tuning.strip_rows = search.trial.strip_rows;
  tuning.keep_halos = search.trial.keep_halos;
  tuning.beside_concats = search.trial.strips_beside_concats;
  SearchTilings(search, baseline);
  for (const auto& [name, tiling] : search.trial.tilings) {
    if (!options.tilings.contains(name) || !(options.tilings.at(name) == tiling)) {
      tuning.tilings[name] = tiling;
    }
  }
  tuning.tuned_cycles = search.best.cycles;
  tuning.tuned_dram_bytes = search.best.dram_bytes();
  tuning.seconds = Since(start);
  return tuning;
}

std::string DefaultTuningDir() { return DefaultCacheDir("tuning"); }

std::string TuningPath(const std::string& dir, const TuningKey& key) {
  const uint64_t id =
      spec::Crc64(key.compiler + Hex(key.graph_fingerprint) + Hex(key.config_fingerprint));
  return fmt::format("{}/{}.json", dir, Hex(id));
}

std::string SerializeTuning(const Tuning& t) {
  Json tilings = Json::object();
  for (const auto& [name, tiling] : t.tilings) tilings[name] = TilingJson(tiling);
  const Json j = {{"format", kFormat},
                  {"compiler", t.key.compiler},
                  {"graph_fingerprint", Hex(t.key.graph_fingerprint)},
                  {"config_fingerprint", Hex(t.key.config_fingerprint)},
                  {"model", t.model},
                  {"baseline_cycles", t.baseline_cycles},
                  {"tuned_cycles", t.tuned_cycles},
                  {"baseline_dram_bytes", t.baseline_dram_bytes},
                  {"tuned_dram_bytes", t.tuned_dram_bytes},
                  {"candidates", t.candidates},
                  {"layers_searched", t.layers_searched},
                  {"layers", t.layers},
                  {"seconds", t.seconds},
                  {"budget_spent", t.budget_spent},
                  {"strip_rows", t.strip_rows},
                  {"keep_halos", t.keep_halos},
                  {"beside_concats", t.beside_concats},
                  {"tilings", tilings}};
  return j.dump(2) + "\n";
}

TuningLookup LoadTuning(const std::string& path, const TuningKey& key) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  const StatusOr<std::string> text = spec::ReadWholeFile(path, "tuning file");
  if (!text.ok()) return {std::nullopt, std::string(text.status().message()) + ": ignored"};
  const Json j = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  auto ignored = [&](const std::string& why) {
    return TuningLookup{std::nullopt, fmt::format("tuning file '{}' {}: ignored", path, why)};
  };
  if (j.is_discarded() || !j.is_object() || j.value("format", "") != kFormat) {
    return ignored(fmt::format("is not a tuning file (\"format\": \"{}\" expected)", kFormat));
  }
  try {
    Tuning t;
    t.key = {j.at("compiler").get<std::string>(),
             std::stoull(j.at("graph_fingerprint").get<std::string>(), nullptr, 16),
             std::stoull(j.at("config_fingerprint").get<std::string>(), nullptr, 16)};
    if (t.key.compiler != key.compiler) {
      return ignored(fmt::format("was made by another compiler build ({}, this is {})",
                                 t.key.compiler, key.compiler));
    }
    if (t.key.config_fingerprint != key.config_fingerprint) {
      return ignored(fmt::format("was made for another config ({}, this is {})",
                                 Hex(t.key.config_fingerprint), Hex(key.config_fingerprint)));
    }
    if (t.key.graph_fingerprint != key.graph_fingerprint) {
      return ignored(fmt::format("was made for another model or quantisation ({}, this is {})",
                                 Hex(t.key.graph_fingerprint), Hex(key.graph_fingerprint)));
    }
    t.model = j.at("model").get<std::string>();
    t.baseline_cycles = j.at("baseline_cycles").get<uint64_t>();
    t.tuned_cycles = j.at("tuned_cycles").get<uint64_t>();
    t.baseline_dram_bytes = j.at("baseline_dram_bytes").get<uint64_t>();
    t.tuned_dram_bytes = j.at("tuned_dram_bytes").get<uint64_t>();
    t.candidates = j.at("candidates").get<uint64_t>();
    t.layers_searched = j.at("layers_searched").get<uint64_t>();
    t.layers = j.at("layers").get<uint64_t>();
    t.seconds = j.at("seconds").get<double>();
    t.budget_spent = j.at("budget_spent").get<bool>();
    for (const auto& [name, rows] : j.at("strip_rows").items()) {
      t.strip_rows[name] = rows.get<int64_t>();
      if (t.strip_rows[name] < 0) throw std::invalid_argument("a negative band height");
    }
    t.keep_halos = j.at("keep_halos").get<bool>();
    t.beside_concats = j.at("beside_concats").get<bool>();
    for (const auto& [name, tiling] : j.at("tilings").items()) {
      t.tilings[name] = TilingFromJson(tiling);
    }
    return {std::move(t), ""};
  } catch (const std::exception& e) {
    return ignored(fmt::format("is malformed ({})", e.what()));
  }
}

Status StoreTuning(const std::string& path, const Tuning& tuning) {
  return spec::WriteFileAtomically(path, SerializeTuning(tuning), "tuning file");
}

CompileOptions WithTuning(CompileOptions options, const Tuning& tuning) {
  options.tilings = tuning.tilings;
  if (!tuning.strip_rows.empty()) {
    options.row_strips = CompileOptions::RowStrips::kOn;
    options.strip_rows = tuning.strip_rows;
    options.keep_halos = tuning.keep_halos;
    options.strips_beside_concats = tuning.beside_concats;
  }
  return options;
}

uint64_t PairsSplit(const Tuning& t) {
  return std::count_if(t.strip_rows.begin(), t.strip_rows.end(),
                       [](const auto& pair) { return pair.second > 0; });
}

std::string DescribeTuning(const Tuning& t) {
  const auto change = [](uint64_t from, uint64_t to) {
    return from ? 100.0 * (double(to) / double(from) - 1) : 0;
  };
  return fmt::format(
      "{} of {} layers searched{}, {} candidates in {:.1f} s: {} -> {} predicted cycles "
      "({:+.2f} %), DRAM traffic {:.1f} -> {:.1f} MB ({:+.2f} %), {} tiling{} changed",
      t.layers_searched, t.layers, t.budget_spent ? " (the budget ran out)" : "", t.candidates,
      t.seconds, t.baseline_cycles, t.tuned_cycles, change(t.baseline_cycles, t.tuned_cycles),
      double(t.baseline_dram_bytes) / 1e6, double(t.tuned_dram_bytes) / 1e6,
      change(t.baseline_dram_bytes, t.tuned_dram_bytes), t.tilings.size(),
      t.tilings.size() == 1 ? "" : "s") +
         (t.strip_rows.empty()
              ? ""
              : fmt::format(", row strips on {} of {} pairs", PairsSplit(t), t.strip_rows.size()));
}

}  // namespace npu::compiler
