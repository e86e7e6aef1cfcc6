// The run report as JSON: the machine-readable form dashboards and sweeps read. The schema is
// docs/report.schema.json (documented in docs/report.md); `schema_version` changes only when a
// field changes meaning or goes away; new fields may be added without a change.
#pragma once

#include <string>

#include "platform/report/run_report.h"

namespace npu::report {

inline constexpr int kReportSchemaVersion = 2;  // 2: engines, layer engine

std::string ToJson(const RunReport& report);

}  // namespace npu::report
