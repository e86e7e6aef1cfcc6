// The latest-access interval map.
#include "compiler/schedule/interval_map.h"

#include <algorithm>
#include <iterator>

namespace npu::compiler {

void LatestAccessMap::SplitAt(uint64_t point) {
  auto it = segments_.upper_bound(point);
  if (it == segments_.begin()) return;
  --it;
  if (it->first < point && point < it->second.end) {
    segments_[point] = {it->second.end, it->second.index};
    it->second.end = point;
  }
}

void LatestAccessMap::Assign(uint64_t begin, uint64_t end, int64_t index) {
  if (begin >= end) return;
  // 1. Cut segments straddling either boundary, 2. drop everything inside, 3. insert.
  SplitAt(begin);
  SplitAt(end);
  segments_.erase(segments_.lower_bound(begin), segments_.lower_bound(end));
  segments_[begin] = {end, index};
}

int64_t LatestAccessMap::MaxIn(uint64_t begin, uint64_t end) const {
  int64_t latest = -1;
  if (begin >= end) return latest;
  auto it = segments_.upper_bound(begin);
  if (it != segments_.begin() && std::prev(it)->second.end > begin) --it;
  for (; it != segments_.end() && it->first < end; ++it)
    latest = std::max(latest, it->second.index);
  return latest;
}

void LatestAccesses::Record(int64_t index, const std::vector<spec::Footprint>& footprints) {
  for (const spec::Footprint& f : footprints) {
    maps_[static_cast<int>(f.space)][f.write ? 1 : 0].Assign(f.begin, f.end, index);
  }
}

int64_t LatestAccesses::LatestConflict(const std::vector<spec::Footprint>& footprints) const {
  int64_t latest = -1;
  for (const spec::Footprint& f : footprints) {
    const auto& maps = maps_[static_cast<int>(f.space)];
    latest = std::max(latest, maps[1].MaxIn(f.begin, f.end));               // RAW, WAW
    if (f.write) latest = std::max(latest, maps[0].MaxIn(f.begin, f.end));  // WAR
  }
  return latest;
}

}  // namespace npu::compiler
