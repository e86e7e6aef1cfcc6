// The model options: their descriptions and their values.
#include "tools/run_workload/model_options.h"

#include <algorithm>
#include <cmath>
#include <iostream>

namespace npu::tools {
namespace {

namespace po = boost::program_options;

template <class T>
void Take(const po::variables_map& vm, const char* name, T& out) {
  if (vm.count(name)) out = vm[name].as<T>();
}

// "a,b" "c" -> a, b, c.
std::vector<std::string> SplitCommas(const std::vector<std::string>& lists) {
  std::vector<std::string> items;
  for (const std::string& list : lists) {
    for (size_t start = 0; start <= list.size();) {
      const size_t comma = std::min(list.find(',', start), list.size());
      if (comma > start) items.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
  }
  return items;
}

}  // namespace

po::options_description ModelOptionsDescription() {
  po::options_description d("What the model compiles to");
  // clang-format off
  d.add_options()
      ("config", po::value<std::string>(),
       "architecture: a built-in config name (--list) or a file (.textproto or .json) merged "
       "onto the default; see docs/config.md")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "override one config field, e.g. --set mac.rows=64 (repeatable)")
      ("calib", po::value<std::vector<std::string>>()->composing(),
       "calibrate the quantisation on these float32 samples instead of the built-in inputs: an "
       ".npy of one sample or a stack [N,...], or a folder of them (its .npy files, in name "
       "order); repeatable; single-input models")
      ("calib-count", po::value<int64_t>(),
       "calibrate on this many samples: the first N of --calib's, or N built-in inputs "
       "(default 4; timing-only runs use 1)")
      ("precision", po::value<std::string>(),
       "int8 (default); w4a8: the weights of convolutions and fully connected layers as int4 "
       "per output channel, run by the MAC array's int4 mode (mac.int4_weight_rate); auto: int4 "
       "for the layers that keep the output within --accuracy-budget-db of int8's, the rest "
       "int8, or with --accuracy-target-db each layer int4, int8 or FP16; fp16: FP16 "
       "activations and weights, FP32 sums and biases, no calibration (docs/quantization.md)")
      ("accuracy-budget-db", po::value<double>(),
       "--precision auto: the output SNR (dB) the int4 layers may cost against all-int8 "
       "(default 1)")
      ("accuracy-target-db", po::value<double>(),
       "--precision auto: the output SNR (dB, against the float model) to reach; layers become "
       "FP16 until it is met, then int4 while it still is (instead of --accuracy-budget-db)")
      ("batch", po::value<int64_t>(),
       "inferences per run: fixes a symbolic batch (default 1) or overrides the model's own; "
       "the model is compiled for one and run that many times in one program")
      ("image-size", po::value<int64_t>(),
       "input height and width for the built-in CNNs (default 224), e.g. --image-size 112")
      ("cpu-ops", po::value<std::vector<std::string>>()->composing(),
       "run these nodes (by name) or ops (e.g. add, max_pool) on the control core instead of "
       "the NPU (repeatable, or comma-separated)")
      ("no-quant-cache",
       "neither reuse nor store the quantised model of an earlier run with the same model, "
       "calibration samples and options (kept in $NPU_CACHE_DIR, else ~/.cache/npu; "
       "docs/quantization.md)")
      ("tune", po::value<double>(),
       "search the convolutions' tilings with the exact cost model on the whole network for at "
       "most this many seconds, and store the result so later compiles of the same model, config "
       "and compiler reuse it (kept in $NPU_CACHE_DIR/tuning, else ~/.cache/npu/tuning, or "
       "--tuning-file; docs/network-compiler.md)")
      ("tuning-file", po::value<std::string>(),
       "read the tuning from (and with --tune, store it in) this file instead")
      ("no-tuning", "ignore stored tunings: the compiler's heuristics alone")
      ("no-cpu-fallback",
       "refuse, listing them, ops the NPU cannot run instead of running them on the control "
       "core (docs/cpu-fallback.md)");
  // clang-format on
  return d;
}

int TakeModelOptions(const std::string& tool, const po::variables_map& vm, Options& options) {
  Take(vm, "config", options.config_file);
  Take(vm, "set", options.overrides);
  Take(vm, "calib", options.calib);
  Take(vm, "calib-count", options.calib_count);
  if (vm.count("calib-count") && (options.calib_count < 1 || options.calib_count > 100000)) {
    std::cerr << tool << ": --calib-count " << options.calib_count
              << ": must be between 1 and 100000\n";
    return 2;
  }
  if (vm.count("precision")) {
    const std::string precision = vm["precision"].as<std::string>();
    if (precision != "int8" && precision != "w4a8" && precision != "auto" && precision != "fp16") {
      std::cerr << tool << ": --precision " << precision << ": must be int8, w4a8, auto or fp16\n";
      return 2;
    }
    options.weight_bits = precision == "w4a8" ? 4 : 8;
    options.auto_precision = precision == "auto";
    options.fp16 = precision == "fp16";
  }
  if (vm.count("accuracy-budget-db")) {
    options.accuracy_budget_db = vm["accuracy-budget-db"].as<double>();
    if (!options.auto_precision) {
      std::cerr << tool << ": --accuracy-budget-db applies to --precision auto\n";
      return 2;
    }
    if (!std::isfinite(options.accuracy_budget_db) || options.accuracy_budget_db < 0) {
      std::cerr << tool << ": --accuracy-budget-db " << options.accuracy_budget_db
                << ": must be a finite number of dB >= 0\n";
      return 2;
    }
  }
  if (vm.count("accuracy-target-db")) {
    options.accuracy_target_db = vm["accuracy-target-db"].as<double>();
    if (!options.auto_precision || vm.count("accuracy-budget-db")) {
      std::cerr << tool << ": --accuracy-target-db applies to --precision auto, without "
                << "--accuracy-budget-db\n";
      return 2;
    }
    if (!std::isfinite(*options.accuracy_target_db)) {
      std::cerr << tool << ": --accuracy-target-db " << *options.accuracy_target_db
                << ": must be a finite number of dB\n";
      return 2;
    }
  }
  if (options.fp16 && (vm.count("calib") || vm.count("calib-count"))) {
    std::cerr << tool << ": --precision fp16 rounds every value to FP16 and calibrates nothing: "
              << "--calib and --calib-count do not apply\n";
    return 2;
  }
  options.quant_cache = vm.count("no-quant-cache") == 0;
  if (vm.count("tune")) {
    options.tune_seconds = vm["tune"].as<double>();
    if (!std::isfinite(*options.tune_seconds) || *options.tune_seconds <= 0) {
      std::cerr << tool << ": --tune " << *options.tune_seconds
                << ": the time budget must be a number of seconds more than 0\n";
      return 2;
    }
  }
  Take(vm, "tuning-file", options.tuning_file);
  options.use_tuning = vm.count("no-tuning") == 0;
  if (!options.use_tuning && (vm.count("tune") || vm.count("tuning-file"))) {
    std::cerr << tool << ": --no-tuning contradicts --tune and --tuning-file\n";
    return 2;
  }
  Take(vm, "image-size", options.image_size);
  Take(vm, "batch", options.batch);
  if (options.batch < 0 || options.batch > 4096) {
    std::cerr << tool << ": --batch " << options.batch << ": must be between 1 and 4096\n";
    return 2;
  }
  std::vector<std::string> cpu_ops;
  Take(vm, "cpu-ops", cpu_ops);
  options.cpu_ops = SplitCommas(cpu_ops);
  options.cpu_fallback = vm.count("no-cpu-fallback") == 0;
  return -1;
}

}  // namespace npu::tools
