// A compiled binary file (npu_compile's .npub) as what run_workload runs: the file's bytes for
// the firmware, the config it was compiled for (or the one the options name), its inputs (from
// --input files or seeded) and, when it carries its quantised graph (--with-reference), the
// integer reference's outputs to check against.
#pragma once

#include <string_view>

#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"
#include "tools/run_workload/options.h"
#include "tools/run_workload/workload_source.h"

namespace npu::tools {

// True if `model` names a compiled binary rather than a model.
bool IsBinaryPath(std::string_view model);

struct LoadedBinary {
  spec::NpuConfig config;
  PreparedWorkload workload;
};

// Reads and opens the file, resolves the config (the recorded one, with --set on top; or
// --config's), refuses the binary now if the firmware would (firmware/program_check.h), and
// prepares inputs and the reference. Options that change a compilation are refused.
StatusOr<LoadedBinary> PrepareBinary(const Options& options);

}  // namespace npu::tools
