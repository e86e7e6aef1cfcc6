// Quantised graphs of earlier runs, on disk, so that a repeated run of a model (another config,
// another input, a sweep's next batch) skips calibration (issue 14). An entry is keyed by all
// that the quantisation depends on: the compiler build (`salt`: the tool's version and commit,
// and the executable itself when built from a modified tree), the float model after the front end
// (its fingerprint), the quantisation options, and every calibration sample's bytes. An entry is
// never trusted: one that does not parse, carries another key, fails its checksum or is not a
// valid quantised graph is reported, ignored and replaced. Storing is best effort: a cache that
// cannot be written costs a notice, not the run.
//
// Files: DIR/<key as 16 hex digits>.qgraph, written atomically (a temporary file renamed into
// place). The least recently used entries are removed once the folder passes kQuantizeCacheBytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "compiler/ir/graph.h"
#include "compiler/quantize/quantize.h"

namespace npu::compiler {

inline constexpr uint64_t kQuantizeCacheBytes = uint64_t{2} << 30;

struct QuantizeCacheOptions {
  std::string dir;   // empty: no cache
  std::string salt;  // the compiler build: entries of other builds never match
};

// $NPU_CACHE_DIR, else $XDG_CACHE_HOME/npu, else $HOME/.cache/npu, each with "/quantized"
// appended; empty if none of them is set.
std::string DefaultQuantizeCacheDir();

// `variant`: what else decides the graph (--precision auto's budget), or "".
uint64_t QuantizeCacheKey(const std::string& salt, uint64_t model_fingerprint,
                          const quantize::QuantizeOptions& options,
                          const quantize::CalibrationSet& calibration,
                          const std::string& variant = "");

struct CacheLookup {
  std::optional<ir::Graph> graph;  // the cached quantised graph, if there is a usable one
  std::string notice;              // why an entry that was there was not used
};
CacheLookup LoadQuantized(const std::string& dir, uint64_t key);

// Returns a notice if the entry could not be stored (the run goes on without it).
std::string StoreQuantized(const std::string& dir, uint64_t key, const ir::Graph& quantized);

}  // namespace npu::compiler
