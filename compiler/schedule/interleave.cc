// Cross-layer interleaving (interleave.h).
#include "compiler/schedule/interleave.h"

#include <algorithm>

#include "compiler/schedule/interval_map.h"
#include "hw/spec/footprint.h"

namespace npu::compiler {

std::vector<uint32_t> InterleaveOrder(const std::vector<spec::Instruction>& earlier,
                                      const std::vector<spec::Instruction>& later, bool spread) {
  LatestAccesses accesses;
  for (size_t j = 0; j < earlier.size(); ++j) {
    accesses.Record(int64_t(j), spec::Footprints(earlier[j]));
  }
  // after[k]: the earlier instruction later[k] goes after (-1: before all of them).
  std::vector<int64_t> after(later.size(), -1);
  int64_t floor = -1;
  for (size_t k = 0; k < later.size(); ++k) {
    floor = std::max(floor, accesses.LatestConflict(spec::Footprints(later[k])));
    after[k] = floor;
  }
  // The leading instructions that conflict with nothing (a layer's first loads) go with the
  // first one that does.
  const auto first_bound =
      std::find_if(after.begin(), after.end(), [](int64_t a) { return a >= 0; });
  if (first_bound != after.end()) std::fill(after.begin(), first_bound, *first_bound);
  if (spread) {
    for (size_t k = 0; k < later.size(); ++k) {
      const int64_t share = int64_t(k * earlier.size() / later.size()) - 1;
      after[k] = std::max(after[k], share);
      if (k > 0) after[k] = std::max(after[k], after[k - 1]);
    }
  }
  std::vector<uint32_t> order;
  order.reserve(earlier.size() + later.size());
  size_t k = 0;
  auto flush = [&](int64_t position) {
    for (; k < later.size() && after[k] == position; ++k) {
      order.push_back(static_cast<uint32_t>(earlier.size() + k));
    }
  };
  flush(-1);
  for (size_t j = 0; j < earlier.size(); ++j) {
    order.push_back(static_cast<uint32_t>(j));
    flush(int64_t(j));
  }
  return order;
}

}  // namespace npu::compiler
