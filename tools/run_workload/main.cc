// run_workload: compile a model for an architecture (or take a binary npu_compile wrote), run it
// on the virtual platform, check it bit for bit against the integer reference, and report where
// every cycle and byte went: a terminal table, and on request JSON, CSV, a Chrome trace and the
// outputs as .npy.
//
// Exit status: 0 PASS (or timing-only done, or no reference to check against), 1 FAIL (outputs
// differ), 2 error (a stopped watchdog included). On error no report file is written.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <systemc>

#include "compiler/accuracy/accuracy.h"
#include "hw/spec/builtin_configs.h"
#include "hw/spec/config.h"
#include "platform/report/chrome_trace.h"
#include "platform/report/csv_report.h"
#include "platform/report/json_report.h"
#include "platform/report/layer_chart.h"
#include "platform/report/run_report.h"
#include "platform/report/terminal_report.h"
#include "platform/run.h"
#include "tools/common/provenance.h"
#include "tools/run_workload/binary_source.h"
#include "tools/run_workload/options.h"
#include "tools/run_workload/output_files.h"
#include "tools/run_workload/workload_source.h"

namespace npu::tools {
namespace {

constexpr int kExitFail = 1;
constexpr int kExitError = 2;

int Error(const Status& s) {
  std::cerr << "run_workload: " << s.message() << "\n";
  return kExitError;
}

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

// Progress on stderr, rewritten in place, only when stderr is a terminal.
platform::RunOptions::ProgressFn Progress(const Options& options) {
  if (options.quiet || !isatty(STDERR_FILENO)) return nullptr;
  return [](uint64_t retired, uint64_t total, uint64_t cycles) {
    std::fprintf(stderr, "\r  simulating: %3.0f%% of %llu instructions, %.2f M cycles   ",
                 total ? 100.0 * retired / total : 0.0, (unsigned long long)total, cycles / 1e6);
  };
}

report::CheckReport Check(const PreparedWorkload& w, const platform::RunResult& run) {
  report::CheckReport check;
  if (!w.unchecked_reason.empty()) {
    check.status = "not-checked";
    check.reason = w.unchecked_reason;
    return check;
  }
  if (w.expected.empty()) {
    check.reason = "timing-only run: no data computed";
    return check;
  }
  check.status = "pass";
  for (size_t o = 0; o < w.expected.size(); ++o) {
    const std::vector<int8_t>& want = w.expected[o];
    const std::vector<int8_t>& got = run.outputs.at(o);
    check.bytes += want.size();
    for (size_t i = 0; i < want.size(); ++i) {
      if (i < got.size() && got[i] == want[i]) continue;
      if (check.mismatches++ == 0) {
        check.status = "fail";
        check.reason = fmt::format("output {} byte {}: got {}, expected {}", o, i,
                                   i < got.size() ? int(got[i]) : 0, int(want[i]));
      }
    }
  }
  return check;
}

// int8 against float on the input the run used: per output and per layer (whole models only).
// The platform's outputs equal the integer reference's, so the reference stands in for them.
Status AddAccuracy(const PreparedWorkload& w, report::RunReport& r) {
  if (!w.float_graph || w.expected.empty()) return Status::Ok();
  NPU_ASSIGN_OR_RETURN(
      compiler::accuracy::AccuracyReport a,
      compiler::accuracy::CompareAccuracy(*w.float_graph, *w.quantized, {w.float_inputs}));
  a.model = w.name;
  r.accuracy_json = compiler::accuracy::FormatAccuracyJson(a);
  r.accuracy_text = compiler::accuracy::FormatAccuracyText(a);
  return Status::Ok();
}

// The files asked for: all written, or none (OutputFiles).
Status WriteFiles(const Options& o, const report::RunReport& r, const PreparedWorkload& w,
                  const platform::RunResult& run, const spec::NpuConfig& config) {
  OutputFiles files;
  std::string json = o.json_file, csv = o.csv_file, trace = o.trace_file;
  if (!o.output_dir.empty()) {
    files.AddDirectory(o.output_dir);
    if (json.empty()) json = o.output_dir + "/report.json";
    if (csv.empty()) csv = o.output_dir + "/layers.csv";
    if (trace.empty()) trace = o.output_dir + "/trace.json";
    files.Add(o.output_dir + "/layers.svg", report::ToLayerChartSvg(r));
    if (!o.timing_only) AddOutputTensors(o.output_dir, w.program, run.outputs, files);
  }
  if (!json.empty()) files.Add(json, report::ToJson(r));
  if (!csv.empty()) files.Add(csv, report::ToCsv(r));
  if (!trace.empty()) {
    files.Add(trace, report::ToChromeTrace(run.trace, run.steps, r.cycles, config, w.program));
  }
  return files.Commit();
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
  report::Provenance provenance = CurrentProvenance(options.command_line);
  StatusOr<LoadedBinary> prepared = Prepare(options);
  if (!prepared.ok()) return Error(prepared.status());
  const spec::NpuConfig* config = &prepared->config;
  const PreparedWorkload* w = &prepared->workload;
  platform::RunOptions run_options;
  run_options.npu.compute_data = !options.timing_only;
  run_options.npu.trace = !options.trace_file.empty() || !options.output_dir.empty();
  run_options.progress = Progress(options);
  run_options.max_cycles = options.max_cycles;
  run_options.timeout_seconds = options.timeout_seconds;
  StatusOr<platform::RunResult> run =
      platform::RunBinary(*config, w->binary, w->inputs, run_options);
  if (run_options.progress) std::cerr << "\r" << std::string(70, ' ') << "\r";
  if (!run.ok()) return Error(run.status().WithContext("running " + w->name));
  report::RunReport r = report::BuildRunReport(
      {w->name, &*config, &w->program, &run->counters, &run->records, &run->steps, run->cycles,
       options.timing_only, w->compile_seconds, run->wall_seconds, w->batch, &run->dram});
  r.provenance = std::move(provenance);
  r.provenance.model_checksum = fmt::format("{:016x}", w->model_checksum);
  r.check = Check(*w, *run);
  if (Status s = AddAccuracy(*w, r); !s.ok()) return Error(s);
  if (Status s = WriteFiles(options, r, *w, *run, *config); !s.ok()) return Error(s);
  (ReportToStandardOutput(options) ? std::cerr : std::cout) << report::FormatTerminalReport(r);
  return r.check.status == "fail" ? kExitFail : 0;
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
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", /*overwrite=*/0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
