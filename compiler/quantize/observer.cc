// Histogram-based range choice (percentile, MSE).
#include "compiler/quantize/observer.h"

#include <algorithm>
#include <cmath>

namespace npu::compiler::quantize {

Histogram::Histogram(float min, float max, int bins)
    : min_(min), max_(max), counts_(static_cast<size_t>(std::max(bins, 1)), 0) {
  // A constant tensor still gets a non-empty range, so bin lookup never divides by zero.
  width_ = max > min ? (double{max} - min) / counts_.size() : 1.0 / counts_.size();
}

void Histogram::Add(std::span<const float> values) {
  const int64_t last = static_cast<int64_t>(counts_.size()) - 1;
  for (float v : values) {
    if (std::isnan(v)) continue;
    const double pos = (double{v} - min_) / width_;
    const int64_t bin = pos <= 0.0 ? 0 : std::min(static_cast<int64_t>(pos), last);
    ++counts_[static_cast<size_t>(bin)];
  }
  total_ += static_cast<int64_t>(values.size());
}

ValueRange PercentileRange(const Histogram& h, double percentile) {
  // 1. Each tail may hold this many values.
  const double tail = static_cast<double>(h.total()) * (100.0 - percentile) / 100.0;
  const std::vector<int64_t>& n = h.counts();
  // 2. The lower tail ends in the first bin whose cumulative count exceeds it.
  int lo_bin = 0;
  for (double cum = 0; lo_bin < h.bins(); ++lo_bin) {
    cum += static_cast<double>(n[lo_bin]);
    if (cum > tail) break;
  }
  // 3. Likewise the upper tail, from the top.
  int hi_bin = h.bins() - 1;
  for (double cum = 0; hi_bin >= 0; --hi_bin) {
    cum += static_cast<double>(n[hi_bin]);
    if (cum > tail) break;
  }
  if (lo_bin >= h.bins() || hi_bin < 0 || lo_bin > hi_bin) return {h.min(), h.max()};
  return {static_cast<float>(h.Edge(lo_bin)), static_cast<float>(h.Edge(hi_bin + 1))};
}

ValueRange MseRange(const Histogram& h) {
  // 1. Prefix sums of count, count * centre, count * centre^2: each candidate is then O(1).
  const int bins = h.bins();
  std::vector<double> p0(bins + 1, 0.0), p1(bins + 1, 0.0), p2(bins + 1, 0.0);
  for (int i = 0; i < bins; ++i) {
    const double c = h.Edge(i) + h.width() / 2, n = static_cast<double>(h.counts()[i]);
    p0[i + 1] = p0[i] + n;
    p1[i + 1] = p1[i] + n * c;
    p2[i + 1] = p2[i] + n * c * c;
  }
  // 2. Candidate ends: lower edges up to zero, upper edges from zero.
  int lo_last = 0;
  while (lo_last + 1 <= bins && h.Edge(lo_last + 1) <= 0.0) ++lo_last;
  int hi_first = bins;
  while (hi_first - 1 >= 0 && h.Edge(hi_first - 1) >= 0.0) --hi_first;
  // 3. Exhaustive search, widest first so that ties keep the wider range.
  double best = INFINITY;
  int best_a = 0, best_b = bins;
  for (int a = 0; a <= lo_last; ++a) {
    const double lo = h.Edge(a);
    const double below = p2[a] - 2 * lo * p1[a] + lo * lo * p0[a];
    for (int b = bins; b >= std::max(hi_first, a); --b) {
      const double hi = h.Edge(b);
      const double above =
          (p2[bins] - p2[b]) - 2 * hi * (p1[bins] - p1[b]) + hi * hi * (p0[bins] - p0[b]);
      const double step = (std::max(hi, 0.0) - std::min(lo, 0.0)) / 255.0;
      const double err = below + above + (p0[b] - p0[a]) * step * step / 12.0;
      if (err < best) best = err, best_a = a, best_b = b;
    }
  }
  return {static_cast<float>(h.Edge(best_a)), static_cast<float>(h.Edge(best_b))};
}

}  // namespace npu::compiler::quantize
