// Parsing run_workload's options with Boost.Program_options.
#include "tools/run_workload/options.h"

#include <boost/program_options.hpp>
#include <charconv>
#include <cstdint>
#include <iostream>

#include "tools/common/command_line.h"
#include "tools/common/provenance.h"
#include "tools/run_workload/model_options.h"

namespace npu::tools {
namespace {

namespace po = boost::program_options;

constexpr char kUsage[] =
    "Usage: run_workload MODEL [options]\n"
    "Compiles MODEL for the architecture, runs it on the simulated NPU (firmware on a control\n"
    "core drives it through registers and DRAM), checks every output byte against the integer\n"
    "reference, and reports cycles, utilisation, stalls by cause, DRAM traffic and the roofline,\n"
    "per layer and in total.\n\n"
    "MODEL is a built-in name (run_workload --list), an .onnx file, a .csv layer list (a\n"
    "SCALE-Sim topology or a GEMM list: docs/topologies.md), or a binary compiled by\n"
    "npu_compile (.npub), which runs on the config it records unless --config or --set say\n"
    "otherwise.\n\n"
    "Examples:\n"
    "  run_workload conv3x3\n"
    "  run_workload fc --set mac.rows=64 --set mac.dataflow=OUTPUT_STATIONARY\n"
    "  run_workload conv3x3 --config small.textproto --output-dir out/\n"
    "  run_workload conv3x3 --timing-only --json report.json\n"
    "  run_workload resnet18 --timing-only --points points.txt --report-dir reports/ --jobs 2\n\n"
    "Options";

po::options_description Visible() {
  po::options_description d(kUsage);
  // clang-format off
  d.add_options()
      ("help,h", "show this help")
      ("list", "list the built-in models and print the default architecture config")
      ("input", po::value<std::vector<std::string>>()->composing(),
       "input tensor as .npy (int8 as is, or float32 quantised with the model's input scale), "
       "one per model input in order; default: the built-in deterministic input")
      ("output-dir", po::value<std::string>(),
       "write the outputs (.npy: int8 and dequantised float32), report.json, layers.csv, "
       "trace.json and layers.svg (a per-layer chart) here")
      ("json", po::value<std::string>(), "write the JSON report (docs/report.md) to this file")
      ("csv", po::value<std::string>(), "write the per-layer table as CSV to this file")
      ("trace", po::value<std::string>(),
       "write a Chrome trace-event timeline (open in ui.perfetto.dev) to this file")
      ("timing-only",
       "skip computing data (outputs are not checked) but keep every cycle identical: faster")
      ("max-cycles", po::value<std::string>(),
       "watchdog: stop a run still going after this many simulated NPU cycles (from power-on, "
       "loading included) with an error saying where each queue stands")
      ("timeout", po::value<double>(),
       "watchdog: stop a run still going after this many seconds of host time, likewise")
      ("points", po::value<std::string>(),
       "batch: run MODEL on each point of this file, one per line: NAME KEY=VALUE ... (config "
       "overrides on top of --config and --set); the model is prepared once, each point "
       "compiled and simulated in its own process; needs --report-dir")
      ("report-dir", po::value<std::string>(),
       "batch: write each point's report here as NAME.json (or NAME.error if it cannot run)")
      ("jobs", po::value<std::string>(), "batch: points run at once (default 1)")
      ("quiet,q", "no progress on stderr");
  // clang-format on
  d.add(ModelOptionsDescription());
  return d;
}

template <class T>
void Take(const po::variables_map& vm, const char* name, T& out) {
  if (vm.count(name)) out = vm[name].as<T>();
}

// --max-cycles as a whole number (from_chars: no sign, no wrapping), --timeout in seconds.
int TakeWatchdog(const po::variables_map& vm, Options& options) {
  if (vm.count("max-cycles")) {
    const std::string text = vm["max-cycles"].as<std::string>();
    const auto [end, error] =
        std::from_chars(text.data(), text.data() + text.size(), options.max_cycles);
    if (text.empty() || text[0] == '-' || error != std::errc() ||
        end != text.data() + text.size() || options.max_cycles == 0) {
      std::cerr << "run_workload: --max-cycles '" << text << "': must be a whole number from 1 to "
                << UINT64_MAX << "\n";
      return 2;
    }
  }
  Take(vm, "timeout", options.timeout_seconds);
  if (vm.count("timeout") && !(options.timeout_seconds > 0 && options.timeout_seconds <= 1e9)) {
    std::cerr << "run_workload: --timeout " << options.timeout_seconds
              << ": must be more than 0 and at most 1e9 seconds\n";
    return 2;
  }
  return -1;
}

// --points, --report-dir and --jobs go together, and exclude the single run's report files.
int TakeBatch(const po::variables_map& vm, Options& options) {
  Take(vm, "points", options.points_file);
  Take(vm, "report-dir", options.report_dir);
  const bool batch = !options.points_file.empty();
  if (batch != !options.report_dir.empty() || (vm.count("jobs") && !batch)) {
    std::cerr << "run_workload: --points and --report-dir go together (--jobs with them)\n";
    return 2;
  }
  for (const char* single : {"output-dir", "json", "csv", "trace"}) {
    if (batch && vm.count(single)) {
      std::cerr << "run_workload: --" << single
                << " is for a single run; a batch writes --report-dir/NAME.json per point\n";
      return 2;
    }
  }
  if (vm.count("jobs")) {
    const std::string text = vm["jobs"].as<std::string>();
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), options.jobs);
    if (error != std::errc() || end != text.data() + text.size() || options.jobs < 1 ||
        options.jobs > 1024) {
      std::cerr << "run_workload: --jobs '" << text << "': must be a whole number from 1 to 1024\n";
      return 2;
    }
  }
  return -1;
}

}  // namespace

int ReportError(const Status& status) {
  std::cerr << "run_workload: " << status.message() << "\n";
  return kExitError;
}

int ParseOptions(int argc, char** argv, Options& options) {
  po::variables_map vm;
  if (const std::optional<int> exit =
          ParseCommandLine("run_workload", argc, argv, Visible(), "model", vm)) {
    return *exit;
  }
  options.command_line = ShellQuotedCommandLine(argc, argv);
  Take(vm, "model", options.model);
  Take(vm, "input", options.inputs);
  Take(vm, "output-dir", options.output_dir);
  Take(vm, "json", options.json_file);
  Take(vm, "csv", options.csv_file);
  Take(vm, "trace", options.trace_file);
  if (const int code = TakeWatchdog(vm, options); code >= 0) return code;
  if (const int code = TakeBatch(vm, options); code >= 0) return code;
  if (const int code = TakeModelOptions("run_workload", vm, options); code >= 0) return code;
  options.timing_only = vm.count("timing-only") > 0;
  options.list = vm.count("list") > 0;
  options.quiet = vm.count("quiet") > 0;
  if (!options.list && options.model.empty()) {
    std::cerr << "run_workload: no MODEL given\n(run_workload --list names the built-in ones)\n";
    return 2;
  }
  return -1;
}

}  // namespace npu::tools
