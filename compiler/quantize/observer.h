// Observers: how calibration turns the values a float tensor took into the real range [lo, hi]
// its int8 quantisation covers. Three choices (QuantizeOptions::observer):
//   min/max     the whole observed range: nothing clips, outliers cost resolution;
//   percentile  the central `percentile` % of the values (both tails), from a histogram;
//   MSE         the range minimising the expected squared quantisation error over the histogram
//               (clipping error of the values outside + step^2 / 12 for each value inside).
// Everything is computed from integer counts in a fixed order, so the same values always give
// the same range, bit for bit.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace npu::compiler::quantize {

struct ValueRange {
  float lo = 0.0f, hi = 0.0f;
};

// Counts of values in `bins` equal-width bins over [min, max] (fixed before the values arrive:
// calibration finds min/max in a first pass). Values outside land in the end bins.
class Histogram {
 public:
  Histogram(float min, float max, int bins);
  void Add(std::span<const float> values);

  int bins() const { return static_cast<int>(counts_.size()); }
  float min() const { return min_; }
  float max() const { return max_; }
  double width() const { return width_; }
  double Edge(int i) const { return min_ + width_ * i; }  // Edge(bins()) == max
  const std::vector<int64_t>& counts() const { return counts_; }
  int64_t total() const { return total_; }

 private:
  float min_, max_;
  double width_;
  std::vector<int64_t> counts_;
  int64_t total_ = 0;
};

// The central `percentile` % (in (50, 100]) of the histogram's values: the lower edge of the
// bin where the lower tail ends, the upper edge of the bin where the upper tail begins.
ValueRange PercentileRange(const Histogram& h, double percentile);

// The [lo, hi] with lo a bin edge <= 0 (or min), hi a bin edge >= 0 (or max), minimising the
// expected squared error of quantising the histogram's values to 256 levels over
// [min(lo, 0), max(hi, 0)]. Ties keep the wider range.
ValueRange MseRange(const Histogram& h);

}  // namespace npu::compiler::quantize
