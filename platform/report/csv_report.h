// The per-layer table as CSV (one header row, one row per layer), for spreadsheets.
#pragma once

#include <string>

#include "platform/report/run_report.h"

namespace npu::report {

std::string ToCsv(const RunReport& report);

}  // namespace npu::report
