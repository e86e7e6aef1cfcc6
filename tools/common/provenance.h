// The provenance of a run a tool is about to make: the build (build_info.h), the time, the host
// and the command line. The caller adds what only it knows (the model's checksum).
#pragma once

#include <string>

#include "platform/report/provenance.h"

namespace npu::tools {

report::Provenance CurrentProvenance(const std::string& command_line);

// argv joined by spaces, each argument single-quoted when a shell would split or expand it.
std::string ShellQuotedCommandLine(int argc, char** argv);

}  // namespace npu::tools
