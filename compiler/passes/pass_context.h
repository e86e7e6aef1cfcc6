// What passes share besides the graph: counters of what they did (npu_opt prints them; tests
// check a rewrite fired) and the --dump-after text.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace npu::compiler::passes {

struct PassContext {
  std::map<std::string, int64_t> stats;  // "fold-batchnorm.folded" -> 20
  std::string dump;                      // the graph printed after PipelineOptions::dump_after

  void Count(const std::string& name, int64_t n = 1) {
    if (n != 0) stats[name] += n;
  }
  int64_t Stat(const std::string& name) const {
    auto it = stats.find(name);
    return it == stats.end() ? 0 : it->second;
  }
};

}  // namespace npu::compiler::passes
