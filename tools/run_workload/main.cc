// run_workload: compile a model for an architecture (or take a binary npu_compile wrote), run it
// on the virtual platform, check it bit for bit against the integer reference, and report where
// every cycle and byte went: a terminal table, and on request JSON, CSV, a Chrome trace and the
// outputs as .npy.
//
// Exit status: 0 PASS (or timing-only done, or no reference to check against), 1 FAIL (outputs
// differ), 2 error (a stopped watchdog included). On error no report file is written.
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <systemc>

#include "hw/spec/builtin_configs.h"
#include "hw/spec/config.h"
#include "platform/leak_check_off.h"  // the sanitizer build: no leak check under SystemC
#include "platform/report/run_report.h"
#include "platform/report/terminal_report.h"
#include "tools/common/malloc_tuning.h"
#include "tools/common/provenance.h"
#include "tools/run_workload/batch.h"
#include "tools/run_workload/binary_source.h"
#include "tools/run_workload/options.h"
#include "tools/run_workload/simulate.h"
#include "tools/run_workload/workload_source.h"

namespace npu::tools {
namespace {

void PrintList() {
  std::cout << "built-in models:\n";
  for (const auto& [name, description] : BuiltinModels()) {
    std::cout << fmt::format("  {:<12} {}\n", name, description);
  }
  std::cout << "\nbuilt-in architecture configs (--config NAME; or a file):\n";
  for (const spec::NamedConfig& c : spec::BuiltinConfigs()) {
    std::cout << fmt::format("  {:<12} {}\n", c.name, c.summary);
  }
  std::cout << "\nthe default config (--set changes any field):\n"
            << spec::ToText(spec::DefaultConfig());
}

// With a report on standard output ("-"), the terminal table goes to standard error.
bool ReportToStandardOutput(const Options& o) {
  return o.json_file == "-" || o.csv_file == "-" || o.trace_file == "-";
}

// The config and what to run on it: a compiled binary brings its config; a model is compiled for
// the one the options name.
StatusOr<LoadedBinary> Prepare(const Options& options) {
  if (IsBinaryPath(options.model)) return PrepareBinary(options);
  LoadedBinary prepared;
  NPU_ASSIGN_OR_RETURN(prepared.config,
                       spec::ResolveConfig(options.config_file, options.overrides));
  if (!options.quiet) std::cerr << "compiling " << options.model << " ...\n";
  NPU_ASSIGN_OR_RETURN(prepared.workload, PrepareWorkload(options, prepared.config));
  prepared.workload.binary = spec::SealProgram(prepared.workload.program);
  return prepared;
}

int Run(const Options& options) {
  if (!options.points_file.empty()) return RunBatch(options);
  report::Provenance provenance = CurrentProvenance(options.command_line);
  StatusOr<LoadedBinary> prepared = Prepare(options);
  if (!prepared.ok()) return ReportError(prepared.status());
  StatusOr<AccuracyReport> accuracy = MeasureAccuracy(prepared->workload.model.get());
  if (!accuracy.ok()) return ReportError(accuracy.status());
  StatusOr<report::RunReport> r = SimulateAndReport(options, prepared->config, prepared->workload,
                                                    *accuracy, std::move(provenance));
  if (!r.ok()) return ReportError(r.status());
  (ReportToStandardOutput(options) ? std::cerr : std::cout) << report::FormatTerminalReport(*r);
  return r->check.status == "fail" ? kExitFail : 0;
}

}  // namespace
}  // namespace npu::tools

int sc_main(int argc, char** argv) {
  npu::tools::Options options;
  if (const int code = npu::tools::ParseOptions(argc, argv, options); code >= 0) return code;
  if (options.list) {
    npu::tools::PrintList();
    return 0;
  }
  return npu::tools::Run(options);
}

// SystemC prints its banner before sc_main unless told not to; a tool's output is its report.
int main(int argc, char** argv) {
  npu::tools::ReexecWithHugePageMalloc(argv);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", /*overwrite=*/0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
