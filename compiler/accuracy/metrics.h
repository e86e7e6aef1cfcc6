// Error metrics between a reference (float) and a test (dequantised int8) tensor, accumulated
// over many samples: cosine similarity, signal-to-noise ratio, maximum absolute error, and the
// top-k agreement of classifier outputs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace npu::compiler::accuracy {

class ErrorStats {
 public:
  // Adds one sample's values (same length).
  void Add(std::span<const float> reference, std::span<const float> test);

  int64_t samples() const { return samples_; }
  // <ref, test> / (|ref| |test|) over all values added; 1 when both are all zero, 0 when one is.
  double Cosine() const;
  double MinSampleCosine() const { return min_cosine_; }
  // 10 log10(sum ref^2 / sum (ref - test)^2); +infinity when the error is zero.
  double SnrDb() const;
  double MaxAbsError() const { return max_abs_; }

 private:
  double dot_ = 0, ref2_ = 0, test2_ = 0, err2_ = 0, max_abs_ = 0, min_cosine_ = 1;
  int64_t samples_ = 0;
};

double Cosine(double dot, double a2, double b2);

// Indices of the k largest values, largest first; ties go to the lower index.
std::vector<int64_t> TopK(std::span<const float> values, int64_t k);

// Share of samples whose reference top-1 class is among the test's top-k classes. A sample whose
// reference top-1 leads the runner-up by less than `tie_margin` (the test's resolution, e.g. one
// int8 output step) is a near tie: no test of that resolution can be expected to resolve it, so
// the rate is also kept over the other samples.
class TopKAgreement {
 public:
  explicit TopKAgreement(int64_t k, double tie_margin = 0.0) : k_(k), tie_margin_(tie_margin) {}
  void Add(std::span<const float> reference, std::span<const float> test);
  int64_t k() const { return k_; }
  int64_t samples() const { return samples_; }
  double Rate() const { return samples_ == 0 ? 0.0 : static_cast<double>(hits_) / samples_; }
  int64_t near_ties() const { return ties_; }
  double ResolvableRate() const {
    const int64_t n = samples_ - ties_;
    return n == 0 ? 1.0 : static_cast<double>(hits_ - tie_hits_) / n;
  }

 private:
  int64_t k_;
  double tie_margin_;
  int64_t hits_ = 0, samples_ = 0, ties_ = 0, tie_hits_ = 0;
};

}  // namespace npu::compiler::accuracy
