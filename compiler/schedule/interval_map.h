// An interval map from address ranges to the latest instruction index that accessed them: the
// dependency pass's memory of "who touched this byte last", O(log n) per update and query
// instead of scanning every earlier instruction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

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

}  // namespace npu::compiler
