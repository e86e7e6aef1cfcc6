// What a run report says of the tuning its compile used (compiler/network/tuning.h): searched by
// this run's --tune, or stored by an earlier one. No SystemC: the compile-only tools carry it too.
#pragma once

#include <cstdint>
#include <string>

namespace npu::report {

struct TuningSummary {
  std::string source;  // "searched" (this run's --tune) or "stored"
  std::string file;    // where it is kept ("" if nowhere)
  uint64_t layers_searched = 0, layers = 0, candidates = 0, tilings_changed = 0;
  uint64_t row_strip_pairs = 0, row_strip_pairs_split = 0;  // of them, split into strips
  double seconds = 0;
  bool budget_spent = false;
  uint64_t baseline_cycles = 0, tuned_cycles = 0;  // predicted
  uint64_t baseline_dram_bytes = 0, tuned_dram_bytes = 0;  // predicted
};

}  // namespace npu::report
