// Running, checking and reporting one compiled workload (simulate.h).
#include "tools/run_workload/simulate.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "compiler/accuracy/accuracy.h"
#include "platform/report/chrome_trace.h"
#include "platform/report/csv_report.h"
#include "platform/report/json_report.h"
#include "platform/report/layer_chart.h"
#include "platform/run.h"
#include "tools/common/output_files.h"
#include "tools/run_workload/output_files.h"

namespace npu::tools {
namespace {

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

}  // namespace

StatusOr<AccuracyReport> MeasureAccuracy(const compiler::QuantizedModel* model) {
  if (!model) return AccuracyReport{};
  // Timing-only: no values to compare, but an auto precision's choice is still worth showing.
  if (model->expected.empty()) return AccuracyReport{"", model->mixed_precision};
  NPU_ASSIGN_OR_RETURN(compiler::accuracy::AccuracyReport a,
                       compiler::accuracy::CompareAccuracy(model->float_graph, model->quantized,
                                                           {model->float_inputs}));
  a.model = model->name;
  a.calibration = compiler::accuracy::CalibrationSummary{
      model->calibration_samples, model->calibration_files, model->calibration_observer,
      model->quantized_from_cache,
      model->fp16             ? "fp16"
      : model->auto_precision ? "auto"
      : model->weight_bits == 4 ? "w4a8"
                                : "int8",
      model->int4_layers, model->fp16_layers, model->mixed_precision};
  return AccuracyReport{compiler::accuracy::FormatAccuracyJson(a),
                        compiler::accuracy::FormatAccuracyText(a)};
}

StatusOr<report::RunReport> SimulateAndReport(const Options& options, const spec::NpuConfig& config,
                                              const PreparedWorkload& w,
                                              const AccuracyReport& accuracy,
                                              report::Provenance provenance) {
  platform::RunOptions run_options;
  run_options.npu.compute_data = !options.timing_only;
  run_options.npu.trace = !options.trace_file.empty() || !options.output_dir.empty();
  run_options.progress = Progress(options);
  run_options.max_cycles = options.max_cycles;
  run_options.timeout_seconds = options.timeout_seconds;
  StatusOr<platform::RunResult> run = platform::RunBinary(config, w.binary, w.inputs, run_options);
  if (run_options.progress) std::cerr << "\r" << std::string(70, ' ') << "\r";
  if (!run.ok()) return run.status().WithContext("running " + w.name);
  report::RunReport r = report::BuildRunReport(
      {w.name, &config, &w.program, &run->counters, &run->records, &run->steps, run->cycles,
       options.timing_only, w.compile_seconds, run->wall_seconds, w.batch, &run->dram});
  r.provenance = std::move(provenance);
  r.provenance.model_checksum = fmt::format("{:016x}", w.model_checksum);
  r.check = Check(w, *run);
  r.accuracy_json = accuracy.json;
  r.accuracy_text = accuracy.text;
  if (const auto& p = w.precision) {
    r.precision = report::RunReport::PrecisionComparison{p->int4_layers, p->fp16_layers, p->int8_cycles,
                                                          p->int8_dram_bytes, p->cycles,
                                                          p->dram_bytes};
  }
  r.tuning = w.tuning;
  NPU_TRY(WriteFiles(options, r, w, *run, config));
  return r;
}

}  // namespace npu::tools
