// run_workload's command line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/spec/status.h"

namespace npu::tools {

struct Options {
  std::string model;  // a built-in name, an .onnx file or a compiled binary (.npub)
  std::string config_file;
  std::vector<std::string> overrides;        // --set key=value
  std::vector<std::string> inputs;           // --input FILE.npy, one per model input
  std::vector<std::string> calib;            // --calib: .npy files (a sample or a stack) or folders
  int64_t calib_count = 0;                   // --calib-count: samples to calibrate on; 0: default
  int weight_bits = 8;                       // --precision: int8 (8) or w4a8 (4)
  bool auto_precision = false;               // --precision auto
  bool fp16 = false;                         // --precision fp16
  double accuracy_budget_db = 1.0;           // --accuracy-budget-db
  std::optional<double> accuracy_target_db;  // --accuracy-target-db
  bool quant_cache = true;                   // --no-quant-cache turns it off
  std::optional<double> tune_seconds;        // --tune: search tilings for this long (tuning.h)
  std::string tuning_file;                   // --tuning-file: where the tuning is kept
  bool use_tuning = true;                    // --no-tuning: ignore stored tunings
  std::string output_dir;                    // outputs (.npy), report.json, layers.csv, trace.json
  std::string json_file, csv_file, trace_file;
  int64_t batch = 0;                 // inferences per run; 0: the model's own
  int64_t image_size = 0;            // built-in CNNs: 0 is the model's own (224)
  std::vector<std::string> cpu_ops;  // --cpu-ops: node or op names to run on the control core
  bool cpu_fallback = true;          // --no-cpu-fallback turns it off
  bool timing_only = false;
  bool reference = true;       // compute the integer reference's outputs (npu_compile: no)
  uint64_t max_cycles = 0;     // --max-cycles: the watchdog's cycle budget; 0: none
  double timeout_seconds = 0;  // --timeout: the watchdog's host-time limit; 0: none
  // --points FILE --report-dir DIR --jobs N: one model on many configs (batch.h).
  std::string points_file, report_dir;
  int jobs = 1;
  bool list = false;
  bool quiet = false;        // no progress on stderr
  std::string command_line;  // argv, shell-quoted: for the report's provenance
};

// run_workload's exit statuses besides 0 (passed, or nothing to check): the outputs differ from
// the reference; an error (bad input, a run that failed or was stopped).
inline constexpr int kExitFail = 1;
inline constexpr int kExitError = 2;

// Prints "run_workload: <message>" on standard error; returns kExitError.
int ReportError(const Status& status);

// Parses argv. Returns an exit code to stop with (help printed: 0; bad usage: 2), or -1 to go on.
int ParseOptions(int argc, char** argv, Options& options);

}  // namespace npu::tools
