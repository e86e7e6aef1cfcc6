// An interval map from address ranges to the latest instruction index that accessed them: the
// dependency pass's memory of "who touched this byte last", O(log n) per update and query
// instead of scanning every earlier instruction.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "hw/spec/footprint.h"

namespace npu::compiler {

class LatestAccessMap {
 public:
  // Records that instruction `index` (larger than every index recorded before) touched
  // [begin, end).
  void Assign(uint64_t begin, uint64_t end, int64_t index);
  // The largest index recorded for any byte in [begin, end), or -1.
  int64_t MaxIn(uint64_t begin, uint64_t end) const;
  size_t segments() const { return segments_.size(); }

 private:
  struct Segment {
    uint64_t end;
    int64_t index;
  };
  void SplitAt(uint64_t point);
  std::map<uint64_t, Segment> segments_;  // disjoint, keyed by begin
};

// The latest reader and writer of every byte of each space (DRAM, SRAM, accumulator), and the
// hazard rule both scheduling passes order instructions by: an access must follow the latest
// write of what it touches (RAW, WAW) and, if it writes, the latest read too (WAR).
class LatestAccesses {
 public:
  // Records instruction `index` (larger than every index recorded before).
  void Record(int64_t index, const std::vector<spec::Footprint>& footprints);
  // The latest recorded instruction an access with these footprints must follow, or -1.
  int64_t LatestConflict(const std::vector<spec::Footprint>& footprints) const;

 private:
  std::array<std::array<LatestAccessMap, 2>, 3> maps_;  // [space][0 read, 1 write]
};

}  // namespace npu::compiler
