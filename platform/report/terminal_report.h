// The report run_workload prints, readable at 100 columns: what ran, the per-layer tables
// (compute, then memory and stalls), the totals against the roofline, where each queue's cycles
// went, and the bit-exact verdict.
#pragma once

#include <string>

#include "platform/report/run_report.h"

namespace npu::report {

std::string FormatTerminalReport(const RunReport& report);

// 1234567 -> "1,234,567".
std::string Grouped(uint64_t v);

}  // namespace npu::report
