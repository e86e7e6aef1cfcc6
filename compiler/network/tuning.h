// Offline auto-tuning (`--tune`, issue 15): a search over the band heights of row strips and the
// convolution tilings with the exact cost model on the whole network, within a time budget,
// stored so later compiles reuse it.
//
// The search: compile once with the heuristics (every layer's tiling chosen alone, by its own
// replay). Then the band heights of row strips (row_strips.h), pair by pair in graph order: whole,
// half the default rows, the default, twice (first, because a pair's strips are layers of their
// own); a chain's inner pair, whose height only says to split it, whole or one height. Then,
// layer by layer from the largest gap between a layer's predicted cycles and its roofline,
// compile the whole network with each of the layer's best other candidates (ranked by the
// analytic estimate: tile sizes, loop orders, residencies) in place of its tiling. A candidate
// is kept if the compiler would prefer it to the best so far (compile_model.h, Preferred: fewer
// predicted cycles, unless the other moves much less DRAM traffic). Each try is the full
// CompileModel (on-chip plan, prefetch, interleaving), so what is kept is what will run, and a
// kept choice changes what the next are tried against. The budget is checked before every
// compile; when it runs out the result is as good as the search reached.
//
// A tuning file (JSON) carries its key: the compiler build, the quantised graph and the config.
// One with another key, or one that does not parse, is ignored with a notice, never trusted; and
// a stored tiling only suggests (CompileOptions::tilings): one that does not fit is searched.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "compiler/compile.h"
#include "compiler/ir/graph.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// Candidate tilings tried per layer, besides the one the heuristics chose.
inline constexpr int kTuningCandidatesPerLayer = 8;

struct TuningKey {
  std::string compiler;  // the build (version, commit, modified-tree hash)
  uint64_t graph_fingerprint = 0;
  uint64_t config_fingerprint = 0;
  bool operator==(const TuningKey&) const = default;
};

TuningKey MakeTuningKey(std::string compiler, const ir::Graph& quantized,
                        const spec::NpuConfig& config);

struct Tuning {
  TuningKey key;
  std::string model;                          // for people reading the file
  std::map<std::string, ConvTiling> tilings;  // the layers whose tiling the search changed
  // Every row-strip pair's band height (row_strips.h: output rows per strip, 0 whole); empty
  // when the network has no pair or row strips were off. Applied with row strips kOn.
  std::map<std::string, int64_t> strip_rows;
  // With strip_rows: the strips keep their halo rows (CompileOptions::keep_halos), as the band
  // search kept them (only tried if the heuristics' compile kept them).
  bool keep_halos = false;
  // With strip_rows: the strips run beside the concatenations
  // (CompileOptions::strips_beside_concats), as the heuristics' compile did.
  bool beside_concats = false;
  uint64_t baseline_cycles = 0;  // predicted, with the heuristics' tilings
  uint64_t tuned_cycles = 0;     // predicted, with `tilings`
  uint64_t baseline_dram_bytes = 0, tuned_dram_bytes = 0;  // predicted DRAM traffic, likewise
  uint64_t candidates = 0;       // whole-network compiles tried
  uint64_t layers_searched = 0, layers = 0;  // convolution layers reached, of all of them
  double seconds = 0;
  bool budget_spent = false;  // stopped by the budget before every layer was searched
};

// The search. InvalidArgument if `budget_seconds` is not more than 0; the baseline compile's
// error if the model does not compile. `progress` (optional) hears one line per layer searched.
StatusOr<Tuning> TuneModel(const spec::NpuConfig& config, const ir::Graph& quantized,
                           const CompileOptions& options, double budget_seconds,
                           const TuningKey& key,
                           const std::function<void(const std::string&)>& progress = {});

// $NPU_CACHE_DIR/tuning, else $XDG_CACHE_HOME/npu/tuning, else $HOME/.cache/npu/tuning; empty if
// none is set. A tuning is stored there as <key as 16 hex digits>.json.
std::string DefaultTuningDir();
std::string TuningPath(const std::string& dir, const TuningKey& key);

std::string SerializeTuning(const Tuning& tuning);

struct TuningLookup {
  std::optional<Tuning> tuning;  // a usable tuning for the key, if the file holds one
  std::string notice;            // why a file that was there was not used
};
// No file: neither a tuning nor a notice.
TuningLookup LoadTuning(const std::string& path, const TuningKey& key);

// The row-strip pairs the tuning splits (a band height of at least 1).
uint64_t PairsSplit(const Tuning& tuning);

// `options` compiling as the tuning searched: its tilings, and its band heights (and whether
// strips keep their halos) with row strips kOn, if it has any.
CompileOptions WithTuning(CompileOptions options, const Tuning& tuning);

// Writes atomically; the error names the path.
Status StoreTuning(const std::string& path, const Tuning& tuning);

// "21 of 21 layers searched, 168 candidates in 24.1 s: 1875139 -> 1870000 predicted cycles
// (-0.27 %), 3 tilings changed" (and ", row strips on 9 of 17 pairs" where there are pairs).
std::string DescribeTuning(const Tuning& tuning);

}  // namespace npu::compiler
