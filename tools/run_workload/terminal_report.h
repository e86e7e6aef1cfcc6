// The report run_workload prints: what ran, where the cycles went, and the bit-exact verdict.
// Fits 100 columns.
#pragma once

#include <string>

#include "tools/run_workload/measurement.h"

namespace npu::tools {

struct CheckResult {
  uint64_t bytes = 0;
  uint64_t mismatches = 0;
  std::string first_mismatch;  // "output[i]: got x, expected y"
  bool pass() const { return mismatches == 0; }
};

std::string FormatReport(const Measurement& m, const CheckResult& check);

// 1234567 -> "1,234,567".
std::string Grouped(uint64_t v);

}  // namespace npu::tools
