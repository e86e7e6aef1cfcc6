// Parsing run_workload's options with Boost.Program_options.
#include "tools/run_workload/options.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>

#include "tools/common/command_line.h"
#include "tools/common/provenance.h"

namespace npu::tools {
namespace {

namespace po = boost::program_options;

constexpr char kUsage[] =
    "Usage: run_workload MODEL [options]\n"
    "Compiles MODEL for the architecture, runs it on the simulated NPU (firmware on a control\n"
    "core drives it through registers and DRAM), checks every output byte against the integer\n"
    "reference, and reports cycles, utilisation, stalls by cause, DRAM traffic and the roofline,\n"
    "per layer and in total.\n\n"
    "MODEL is a built-in name (run_workload --list).\n\n"
    "Examples:\n"
    "  run_workload conv3x3\n"
    "  run_workload fc --set mac.rows=64 --set mac.dataflow=OUTPUT_STATIONARY\n"
    "  run_workload conv3x3 --config small.textproto --output-dir out/\n"
    "  run_workload conv3x3 --timing-only --json report.json\n\n"
    "Options";

po::options_description Visible() {
  po::options_description d(kUsage);
  // clang-format off
  d.add_options()
      ("help,h", "show this help")
      ("list", "list the built-in models and print the default architecture config")
      ("config", po::value<std::string>(),
       "architecture: a built-in config name (--list) or a file (.textproto or .json) merged "
       "onto the default; see docs/config.md")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "override one config field, e.g. --set mac.rows=64 (repeatable)")
      ("input", po::value<std::vector<std::string>>()->composing(),
       "input tensor as .npy (int8 as is, or float32 quantised with the model's input scale), "
       "one per model input in order; default: the built-in deterministic input")
      ("calib", po::value<std::vector<std::string>>()->composing(),
       "calibrate the quantisation on this float32 .npy sample (repeatable; single-input models) "
       "instead of the built-in inputs")
      ("output-dir", po::value<std::string>(),
       "write the outputs (.npy: int8 and dequantised float32), report.json, layers.csv, "
       "trace.json and layers.svg (a per-layer chart) here")
      ("json", po::value<std::string>(), "write the JSON report (docs/report.md) to this file")
      ("csv", po::value<std::string>(), "write the per-layer table as CSV to this file")
      ("trace", po::value<std::string>(),
       "write a Chrome trace-event timeline (open in ui.perfetto.dev) to this file")
      ("batch", po::value<int64_t>(),
       "inferences per run: fixes a symbolic batch (default 1) or overrides the model's own; "
       "the model is compiled for one and run that many times in one program")
      ("image-size", po::value<int64_t>(),
       "input height and width for the built-in CNNs (default 224), e.g. --image-size 112")
      ("cpu-ops", po::value<std::vector<std::string>>()->composing(),
       "run these nodes (by name) or ops (e.g. add, max_pool) on the control core instead of "
       "the NPU (repeatable, or comma-separated)")
      ("no-cpu-fallback",
       "refuse, listing them, ops the NPU cannot run instead of running them on the control "
       "core (docs/cpu-fallback.md)")
      ("timing-only",
       "skip computing data (outputs are not checked) but keep every cycle identical: faster")
      ("quiet,q", "no progress on stderr");
  // clang-format on
  return d;
}

template <class T>
void Take(const po::variables_map& vm, const char* name, T& out) {
  if (vm.count(name)) out = vm[name].as<T>();
}

}  // namespace

int ParseOptions(int argc, char** argv, Options& options) {
  po::variables_map vm;
  if (const std::optional<int> exit =
          ParseCommandLine("run_workload", argc, argv, Visible(), "model", vm)) {
    return *exit;
  }
  options.command_line = ShellQuotedCommandLine(argc, argv);
  Take(vm, "model", options.model);
  Take(vm, "config", options.config_file);
  Take(vm, "set", options.overrides);
  Take(vm, "input", options.inputs);
  Take(vm, "calib", options.calib);
  Take(vm, "output-dir", options.output_dir);
  Take(vm, "json", options.json_file);
  Take(vm, "csv", options.csv_file);
  Take(vm, "trace", options.trace_file);
  Take(vm, "image-size", options.image_size);
  Take(vm, "batch", options.batch);
  if (options.batch < 0 || options.batch > 4096) {
    std::cerr << "run_workload: --batch " << options.batch << ": must be between 1 and 4096\n";
    return 2;
  }
  std::vector<std::string> cpu_ops;
  Take(vm, "cpu-ops", cpu_ops);
  for (const std::string& list : cpu_ops) {
    for (size_t start = 0; start <= list.size();) {
      const size_t comma = std::min(list.find(',', start), list.size());
      if (comma > start) options.cpu_ops.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
  }
  options.cpu_fallback = vm.count("no-cpu-fallback") == 0;
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
