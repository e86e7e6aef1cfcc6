// Error metrics.
#include "compiler/accuracy/metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace npu::compiler::accuracy {

double Cosine(double dot, double a2, double b2) {
  if (a2 == 0.0 && b2 == 0.0) return 1.0;
  if (a2 == 0.0 || b2 == 0.0) return 0.0;
  return dot / (std::sqrt(a2) * std::sqrt(b2));
}

void ErrorStats::Add(std::span<const float> reference, std::span<const float> test) {
  double dot = 0, r2 = 0, t2 = 0;
  for (size_t i = 0; i < reference.size() && i < test.size(); ++i) {
    const double r = reference[i], t = test[i], e = r - t;
    dot += r * t;
    r2 += r * r;
    t2 += t * t;
    err2_ += e * e;
    max_abs_ = std::max(max_abs_, std::fabs(e));
  }
  dot_ += dot, ref2_ += r2, test2_ += t2;
  min_cosine_ = std::min(min_cosine_, accuracy::Cosine(dot, r2, t2));
  ++samples_;
}

double ErrorStats::Cosine() const { return accuracy::Cosine(dot_, ref2_, test2_); }

double ErrorStats::SnrDb() const {
  if (err2_ == 0.0) return INFINITY;
  if (ref2_ == 0.0) return -INFINITY;
  return 10.0 * std::log10(ref2_ / err2_);
}

std::vector<int64_t> TopK(std::span<const float> values, int64_t k) {
  std::vector<int64_t> idx(values.size());
  std::iota(idx.begin(), idx.end(), 0);
  k = std::min<int64_t>(k, static_cast<int64_t>(idx.size()));
  std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](int64_t a, int64_t b) {
    return values[a] > values[b] || (values[a] == values[b] && a < b);
  });
  idx.resize(k);
  return idx;
}

void TopKAgreement::Add(std::span<const float> reference, std::span<const float> test) {
  const std::vector<int64_t> ref = TopK(reference, 2);
  const std::vector<int64_t> got = TopK(test, k_);
  const bool hit = !ref.empty() && std::find(got.begin(), got.end(), ref[0]) != got.end();
  const bool tie =
      ref.size() == 2 && double{reference[ref[0]]} - double{reference[ref[1]]} < tie_margin_;
  hits_ += hit ? 1 : 0;
  ties_ += tie ? 1 : 0;
  tie_hits_ += hit && tie ? 1 : 0;
  ++samples_;
}

}  // namespace npu::compiler::accuracy
