// Where a run's result came from (report.json's `provenance`, docs/report.md). A plain struct so
// that tools fill it without depending on the report library.
#pragma once

#include <string>

namespace npu::report {

// Where a result came from, so that a stored report can be traced back and compared fairly
// (docs/report.md): the build, when and where it ran, how it was invoked, and which model.
// Filled by the tool that runs (tools/common/provenance.h); empty fields are left out.
struct Provenance {
  std::string version, commit;  // the project version; the commit built from ("unknown")
  bool dirty = false;           // tracked files differed from the commit
  std::string build_type;
  std::string timestamp;       // UTC, ISO 8601, when the run started
  std::string host;            // the machine's host name
  std::string command_line;    // as typed, shell-quoted
  std::string model_checksum;  // hex CRC-64 of the model as built or imported
};

}  // namespace npu::report
