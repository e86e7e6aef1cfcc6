// Built-in single-layer workloads as PreparedWorkloads; inputs from .npy files.
#include "tools/run_workload/workload_source.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>

#include "compiler/compile.h"
#include "compiler/network/model_pipeline.h"
#include "compiler/network/tuning.h"
#include "compiler/reference/reference_conv.h"
#include "hw/spec/binary.h"
#include "hw/spec/fp16.h"
#include "tools/common/build_info.h"
#include "tools/common/npy.h"
#include "workloads/models/layer_list.h"
#include "workloads/models/models.h"
#include "workloads/single_layer.h"

namespace npu::tools {

std::vector<std::pair<std::string, std::string>> BuiltinModels() {
  std::vector<std::pair<std::string, std::string>> models;
  for (const workloads::ModelInfo& m : workloads::ListModels()) {
    models.emplace_back(std::string(m.name), std::string(m.summary));
  }
  for (const std::string& name : workloads::SingleLayerWorkloadNames()) {
    StatusOr<workloads::Workload> w = workloads::MakeSingleLayerWorkload(name);
    models.emplace_back(name, w.ok() ? w->description : "");
  }
  return models;
}

StatusOr<std::vector<int8_t>> InputFromNpy(const std::string& path,
                                           const spec::TensorDesc& tensor) {
  NPU_ASSIGN_OR_RETURN(const NpyArray a, ReadNpyFile(path));
  const size_t elements = a.data.size() / (a.dtype == "<f4" ? 4 : 1);
  if (tensor.dtype() == spec::FLOAT16) {  // float32 values, each rounded to FP16
    if (a.dtype != "<f4" || elements * 2 != tensor.size_bytes()) {
      return InvalidArgument(fmt::format(
          "{}: FP16 input '{}' takes {} float32 values ({} in NHWC order); the file holds {} "
          "values of {}",
          path, tensor.name(), tensor.size_bytes() / 2, fmt::join(tensor.shape(), "x"), elements,
          a.dtype));
    }
    NPU_ASSIGN_OR_RETURN(const std::vector<float> f, FiniteFloats(a, path));
    std::vector<int8_t> bytes(elements * 2);
    for (size_t i = 0; i < elements; ++i) spec::StoreFp16(bytes.data(), i, spec::FloatToFp16(f[i]));
    return bytes;
  }
  if ((a.dtype != "|i1" && a.dtype != "<f4") || elements != tensor.size_bytes()) {
    return InvalidArgument(fmt::format(
        "{}: input '{}' takes {} int8 or float32 values ({} in NHWC order); the file holds {} "
        "values of {}",
        path, tensor.name(), tensor.size_bytes(), fmt::join(tensor.shape(), "x"), elements,
        a.dtype));
  }
  std::vector<int8_t> q(elements);
  if (a.dtype == "|i1") {
    std::memcpy(q.data(), a.data.data(), elements);
    return q;
  }
  // Float input: quantise as ONNX QuantizeLinear does (round half to even, saturate).
  NPU_ASSIGN_OR_RETURN(const std::vector<float> f, FiniteFloats(a, path));
  for (size_t i = 0; i < elements; ++i) {
    const double v = std::nearbyint(double(f[i]) / tensor.scale()) + tensor.zero_point();
    q[i] = static_cast<int8_t>(std::clamp(v, -128.0, 127.0));
  }
  return q;
}

StatusOr<compiler::interp::HostTensor> FloatInput(const std::string& path) {
  NPU_ASSIGN_OR_RETURN(const NpyArray a, ReadNpyFile(path));
  if (a.dtype != "<f4") {
    return InvalidArgument(fmt::format("{}: a model input must be float32, not {}", path, a.dtype));
  }
  NPU_ASSIGN_OR_RETURN(std::vector<float> values, FiniteFloats(a, path));
  return compiler::interp::HostTensor::FromValues<float>(
      a.shape, values,
      a.shape.size() == 4 ? compiler::ir::Layout::kNCHW : compiler::ir::Layout::kNone);
}

namespace {

bool IsSingleLayer(const std::string& name) {
  for (const std::string& n : workloads::SingleLayerWorkloadNames()) {
    if (n == name) return true;
  }
  return false;
}

bool IsBuiltinModel(const std::string& name) {
  for (const workloads::ModelInfo& m : workloads::ListModels()) {
    if (m.name == name) return true;
  }
  return false;
}

// --calib's paths with each folder replaced by its .npy files in name order. A folder without any,
// or a path that is neither, is an error naming it.
StatusOr<std::vector<std::string>> CalibrationFiles(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!fs::is_directory(path, error)) {
      files.push_back(path);  // read (and refused if missing) as a file
      continue;
    }
    std::vector<std::string> in_folder;
    for (const fs::directory_entry& e : fs::directory_iterator(path, error)) {
      if (e.path().extension() == ".npy" && !e.is_directory()) in_folder.push_back(e.path());
    }
    if (error) {
      return InvalidArgument(
          fmt::format("--calib {}: cannot list the folder: {}", path, error.message()));
    }
    if (in_folder.empty()) {
      return InvalidArgument(fmt::format("--calib {}: the folder holds no .npy file", path));
    }
    std::sort(in_folder.begin(), in_folder.end());
    files.insert(files.end(), in_folder.begin(), in_folder.end());
  }
  return files;
}

compiler::ModelPipelineOptions PipelineOptions(const Options& options) {
  compiler::ModelPipelineOptions mo;
  mo.compute_reference = options.reference && !options.timing_only;
  mo.image_size = options.image_size;
  mo.batch = options.batch;
  mo.compile.cpu_fallback = options.cpu_fallback;
  mo.compile.cpu_ops = options.cpu_ops;
  mo.quantize.weight_bits = options.weight_bits;
  mo.auto_precision = options.auto_precision;
  mo.fp16 = options.fp16;
  mo.accuracy_budget_db = options.accuracy_budget_db;
  mo.accuracy_target_db = options.accuracy_target_db;
  if (options.quant_cache) {
    mo.quantize_cache = {compiler::DefaultQuantizeCacheDir(), CodeIdentity()};
  }
  if (options.timing_only && !options.auto_precision) {
    // Scales and zero points change the values the NPU computes, never its instruction stream's
    // shape or timing, and a timing-only run computes no values: one min/max calibration pass
    // is enough, and cycles stay identical to a full run's. (Not with --precision auto: the
    // calibration decides which layers are int4, so the instruction stream.)
    mo.calibration_samples = 1;
    mo.quantize.observer = compiler::quantize::Observer::kMinMax;
  }
  return mo;
}

// A whole model's front end, quantisation, input and integer reference.
StatusOr<compiler::QuantizedModel> QuantizeWholeModel(const Options& options,
                                                      const spec::NpuConfig* fits) {
  compiler::ModelPipelineOptions mo = PipelineOptions(options);
  NPU_ASSIGN_OR_RETURN(const std::vector<std::string> calib_files, CalibrationFiles(options.calib));
  for (const std::string& path : calib_files) {
    NPU_ASSIGN_OR_RETURN(compiler::interp::HostTensor t, FloatInput(path));
    mo.calibration.push_back({std::move(t)});
    mo.calibration_names.push_back(path);
  }
  if (options.calib_count > 0 && !calib_files.empty()) mo.calibration_limit = options.calib_count;
  if (options.calib_count > 0 && calib_files.empty() && !options.timing_only) {
    mo.calibration_samples = int(options.calib_count);
  }
  for (const std::string& path : options.inputs) {
    NPU_ASSIGN_OR_RETURN(compiler::interp::HostTensor t, FloatInput(path));
    mo.inputs.push_back(std::move(t));
  }
  NPU_ASSIGN_OR_RETURN(compiler::QuantizedModel m,
                       compiler::QuantizeModel(options.model, mo, fits));
  m.calibration_files = calib_files;
  // A cache entry that could not be used or stored: the run is right, but the user should know.
  if (!m.cache_notice.empty()) std::cerr << "notice: " << m.cache_notice << "\n";
  return m;
}

using report::TuningSummary;

TuningSummary Summary(const compiler::Tuning& t, std::string source, std::string file) {
  return {std::move(source),
          std::move(file),
          t.layers_searched,
          t.layers,
          t.candidates,
          t.tilings.size(),
          t.strip_rows.size(),
          compiler::PairsSplit(t),
          t.seconds,
          t.budget_spent,
          t.baseline_cycles,
          t.tuned_cycles,
          t.baseline_dram_bytes,
          t.tuned_dram_bytes};
}

// The tuning to compile with (compiler/network/tuning.h): searched now with --tune and stored,
// or the stored one for this model, config and compiler; none with --no-tuning or none stored.
// What happened goes to stderr.
using MaybeTuning = std::optional<compiler::Tuning>;

StatusOr<MaybeTuning> FindTuning(const compiler::QuantizedModel& m, const Options& options,
                                 const spec::NpuConfig& config,
                                 std::optional<TuningSummary>& summary) {
  if (!options.use_tuning) return MaybeTuning{};
  const compiler::TuningKey key = compiler::MakeTuningKey(CodeIdentity(), m.batched, config);
  const std::string dir = compiler::DefaultTuningDir();
  const std::string path = !options.tuning_file.empty() ? options.tuning_file
                           : dir.empty()                ? ""
                                                        : compiler::TuningPath(dir, key);
  if (options.tune_seconds) {
    auto progress = [&](const std::string& line) {
      if (!options.quiet) std::cerr << line << "\n";
    };
    NPU_ASSIGN_OR_RETURN(compiler::Tuning tuning,
                         compiler::TuneModel(config, m.batched, PipelineOptions(options).compile,
                                             *options.tune_seconds, key, progress));
    std::string where = "not stored (no cache folder: set NPU_CACHE_DIR or --tuning-file)";
    bool stored = false;
    if (!path.empty()) {
      const Status s = compiler::StoreTuning(path, tuning);
      stored = s.ok();
      where = stored ? "stored in " + path : "not stored: " + std::string(s.message());
    }
    std::cerr << "tuning: " << compiler::DescribeTuning(tuning) << "; " << where << "\n";
    summary = Summary(tuning, "searched", stored ? path : "");
    return MaybeTuning(std::move(tuning));
  }
  if (path.empty()) return MaybeTuning{};
  compiler::TuningLookup found = compiler::LoadTuning(path, key);
  if (!found.notice.empty()) std::cerr << "notice: " << found.notice << "\n";
  if (!found.tuning && !options.tuning_file.empty() && found.notice.empty()) {
    return NotFound(fmt::format("--tuning-file '{}': no such file", options.tuning_file));
  }
  if (!found.tuning) return MaybeTuning{};
  // Always said, even with --quiet: the cycles are not the heuristics'.
  std::cerr << "tuning: using " << path << " (" << compiler::DescribeTuning(*found.tuning) << ")\n";
  summary = Summary(*found.tuning, "stored", path);
  return found.tuning;
}

// The variants' compile progress on stderr, rewritten in place, only when stderr is a terminal
// (on a small SRAM, a large model's variants take tens of seconds: docs/network-performance.md,
// "Compile time").
std::function<void(size_t, size_t)> CompileProgress(const Options& options) {
  if (options.quiet || !isatty(STDERR_FILENO)) return nullptr;
  return [start = std::chrono::steady_clock::now()](size_t compiled, size_t variants) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "\r  compiling: %zu of %zu fusion variants, %.1f s   ", compiled,
                 variants, seconds);
  };
}

// A whole model compiled for `config`.
StatusOr<PreparedWorkload> CompileWholeModel(std::shared_ptr<const compiler::QuantizedModel> m,
                                             const Options& options,
                                             const spec::NpuConfig& config) {
  const auto start = std::chrono::steady_clock::now();
  compiler::CompileOptions compile = PipelineOptions(options).compile;
  std::optional<TuningSummary> summary;
  NPU_ASSIGN_OR_RETURN(const MaybeTuning tuning, FindTuning(*m, options, config, summary));
  if (tuning) compile = compiler::WithTuning(std::move(compile), *tuning);
  compile.progress = CompileProgress(options);
  StatusOr<compiler::CompiledModel> compiled_or = compiler::CompileForConfig(*m, config, compile);
  if (compile.progress) std::cerr << "\r" << std::string(70, ' ') << "\r";
  NPU_ASSIGN_OR_RETURN(compiler::CompiledModel compiled, std::move(compiled_or));
  PreparedWorkload p;
  p.tuning = summary;
  if (m->int8_twin) {  // --precision auto: what the same model all int8 would take
    NPU_ASSIGN_OR_RETURN(
        const compiler::CompiledModel int8,
        compiler::CompileModel(config, *m->int8_twin, PipelineOptions(options).compile));
    p.precision = PreparedWorkload::PrecisionComparison{
        m->int4_layers.size(),  m->fp16_layers.size(), int8.cost.cycles,
        int8.cost.dram_bytes(), compiled.cost.cycles,  compiled.cost.dram_bytes()};
  }
  p.name = m->name;
  p.compile_report = compiler::CompileReport(compiled);
  p.program = std::move(compiled.program);
  p.inputs = m->inputs;
  p.expected = m->expected;
  p.compile_seconds =
      m->prepare_seconds + m->quantize_seconds +
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  p.batch = m->batch;
  p.model_checksum = m->model_fingerprint;
  p.model = std::move(m);
  return p;
}

// A built-in single-layer workload compiled for `config`.
StatusOr<PreparedWorkload> CompileSingleLayer(const Options& options,
                                              const spec::NpuConfig& config) {
  NPU_ASSIGN_OR_RETURN(workloads::Workload w, workloads::MakeSingleLayerWorkload(options.model));
  PreparedWorkload p;
  p.name = w.name;
  p.model_checksum =
      spec::Crc64(w.description + std::string(w.layer.weights.begin(), w.layer.weights.end()) +
                  std::string(w.input.begin(), w.input.end()));
  const auto start = std::chrono::steady_clock::now();
  StatusOr<spec::Program> program = compiler::CompileConvLayer(config, w.layer);
  if (!program.ok()) return program.status().WithContext("compiling " + w.name);
  p.program = *std::move(program);
  p.compile_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (options.inputs.size() > 1) {
    return InvalidArgument(
        fmt::format("{} takes 1 input, {} --input files given", w.name, options.inputs.size()));
  }
  if (options.inputs.empty()) {
    p.inputs.push_back(w.input);
  } else {
    NPU_ASSIGN_OR_RETURN(std::vector<int8_t> input,
                         InputFromNpy(options.inputs[0], p.program.inputs(0)));
    p.inputs.push_back(std::move(input));
  }
  if (options.reference && !options.timing_only) {
    NPU_ASSIGN_OR_RETURN(std::vector<int8_t> expected,
                         compiler::ReferenceConv(w.layer, p.inputs[0]));
    p.expected.push_back(std::move(expected));
  }
  return p;
}

}  // namespace

StatusOr<WorkloadSource> LoadWorkloadSource(const Options& options, const spec::NpuConfig* fits) {
  WorkloadSource source;
  if (IsSingleLayer(options.model)) {
    // A built-in layer is int8 with its own weights and input: nothing to quantise.
    std::vector<std::string> given;
    if (options.weight_bits != 8 || options.auto_precision || options.fp16) {
      given.push_back("--precision");
    }
    if (!options.calib.empty()) given.push_back("--calib");
    if (!given.empty()) {
      return InvalidArgument(fmt::format(
          "{} is a built-in int8 layer with its own weights and input: {} does not apply (give a "
          "model: a built-in network, an .onnx file or a .csv layer list)",
          options.model, fmt::join(given, ", ")));
    }
    return source;
  }
  if (!IsBuiltinModel(options.model) && !compiler::IsOnnxPath(options.model) &&
      !workloads::IsLayerListPath(options.model)) {
    std::string known;
    for (const auto& [name, _] : BuiltinModels()) known += (known.empty() ? "" : ", ") + name;
    return NotFound(
        fmt::format("no model '{}': give a built-in name ({}), an .onnx file or a .csv layer list",
                    options.model, known));
  }
  NPU_ASSIGN_OR_RETURN(compiler::QuantizedModel m, QuantizeWholeModel(options, fits));
  source.model = std::make_shared<const compiler::QuantizedModel>(std::move(m));
  return source;
}

StatusOr<PreparedWorkload> CompileWorkload(const WorkloadSource& source, const Options& options,
                                           const spec::NpuConfig& config) {
  if (source.model) return CompileWholeModel(source.model, options, config);
  return CompileSingleLayer(options, config);
}

StatusOr<PreparedWorkload> PrepareWorkload(const Options& options, const spec::NpuConfig& config) {
  NPU_ASSIGN_OR_RETURN(const WorkloadSource source, LoadWorkloadSource(options, &config));
  return CompileWorkload(source, options, config);
}

}  // namespace npu::tools
