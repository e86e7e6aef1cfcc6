// The whole path from a model to what the platform runs, for run_workload and tests:
//
//   StatusOr<PreparedModel> m = PrepareModel("resnet18", config, {});   // or "path/to/x.onnx"
//   platform::RunBinary(config, spec::SealProgram(m->compiled.program), m->inputs, {});
//   // compare the run's outputs with m->expected, byte for byte
//
//   1. The float graph: a built-in model (workloads/models, ModelOptions{image_size}), an ONNX
//      file or a .csv layer list (workloads/models/layer_list.h); QDQ pairs folded (a quantised
//      ONNX model keeps its own scales).
//   2. The front-end pipeline (compiler/passes: BN folding, fusion, NHWC).
//   3. Post-training quantisation (compiler/quantize), calibrated on the caller's samples or on
//      seeded inputs, or the quantised graph an earlier run stored for the same model, samples
//      and options (quantize_cache.h).
//   4. CompileModel (compile_model.h).
//   5. The input: a seeded float input (or the caller's), quantised with the graph input's
//      parameters; the expected outputs from the integer reference (compiler/qinterp).
// A batch of N: the float graph is made batch 1 (a fixed batch in the model is undone by shape
// inference, which names the node a hard-coded batch breaks), quantised, and replicated N times
// before compiling (batch.h); inputs and calibration samples are split per inference.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "compiler/network/compile_model.h"
#include "compiler/network/quantize_cache.h"
#include "compiler/quantize/quantize.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct ModelPipelineOptions {
  int64_t image_size = 0;       // built-in CNNs: 0 is the model's default (224)
  int calibration_samples = 4;  // seeded inputs from quantize::kCalibrationSeed
  // The caller's calibration samples (each: one float value per graph input, the float model's
  // shapes, or a stack of them along the first dim); when given, they replace the seeded ones.
  std::vector<std::vector<interp::HostTensor>> calibration;
  std::vector<std::string> calibration_names;  // where each came from, for errors (optional)
  int64_t calibration_limit = 0;  // use the first this many of the caller's samples; 0: all
  quantize::QuantizeOptions quantize;
  // --precision auto: choose int4 layers within this budget, or int4 and FP16 layers reaching
  // this target SNR (mixed_precision.h), measured on the first kMixedPrecisionSamples
  // calibration samples.
  bool auto_precision = false;
  double accuracy_budget_db = 1.0;
  std::optional<double> accuracy_target_db;
  // FP16 instead of int8: the float graph rounded to FP16 (quantize::ConvertToFp16), no
  // calibration, no cache (the conversion takes milliseconds); the reference is the FP16 one.
  bool fp16 = false;
  uint32_t input_seed = quantize::kEvaluationSeed;  // the input run and checked
  // Float inputs to run instead of the seeded one (one per graph input, the float model's
  // shapes, NCHW for images).
  std::vector<interp::HostTensor> inputs;
  bool compute_reference = true;  // false: skip the integer reference (timing-only runs)
  // Inferences per run: 0 is the model's own (its inputs' first dim, or 1 where that is
  // symbolic). The model is compiled for one and replicated (compiler/network/batch.h); `inputs`
  // and calibration samples may carry the batch in their first dim.
  int64_t batch = 0;
  CompileOptions compile;
  // Where quantised graphs of earlier runs are kept (quantize_cache.h); no dir: none.
  QuantizeCacheOptions quantize_cache;
};

// Steps 1-3 and 5: everything that does not depend on the architecture config. A sweep over
// hardware fields does it once and compiles it for each point (CompileForConfig).
struct QuantizedModel {
  std::string name;
  // The model as built or imported, before any pass (ir/fingerprint.h): which model this is.
  uint64_t model_fingerprint = 0;
  ir::Graph float_graph;  // after the front-end pipeline, one inference (batch 1)
  ir::Graph quantized;    // one inference; the program runs `batch` copies of it
  ir::Graph batched;      // `quantized` replicated `batch` times: what is compiled
  int64_t batch = 1;
  std::vector<interp::HostTensor> float_inputs;  // the first inference's (for accuracy reports)
  std::vector<std::vector<int8_t>> inputs;       // quantised, one per program input
  std::vector<std::vector<int8_t>> expected;     // integer reference outputs (empty if skipped)
  // What the quantisation was calibrated on: the number of samples, the observer, and the files
  // they came from (the caller fills them in; empty: the built-in seeded inputs).
  int64_t calibration_samples = 0;
  std::string calibration_observer;
  int weight_bits = 8;  // quantize::QuantizeOptions::weight_bits
  bool auto_precision = false;
  bool fp16 = false;  // ModelPipelineOptions::fp16: `quantized` is an FP16 graph
  // With auto_precision: the layers with int4 weights (from the graph, also on a cache hit) and,
  // when chosen in this run, the choice's table (FormatMixedPrecision).
  std::vector<std::string> int4_layers, fp16_layers;
  std::string mixed_precision;
  // With auto_precision: the same model all int8 (same calibration), batched, for the report's
  // comparison (null if a cached choice has no cached int8 twin).
  std::shared_ptr<const ir::Graph> int8_twin;
  std::vector<std::string> calibration_files;
  bool quantized_from_cache = false;  // calibration skipped: an earlier run's quantised graph
  std::string cache_notice;           // an unusable or unwritable cache entry, for the user
  double prepare_seconds = 0, quantize_seconds = 0, reference_seconds = 0;
};

struct PreparedModel : QuantizedModel {
  CompiledModel compiled;
  double compile_seconds = 0;
};

// True if `model` names an ONNX file rather than a built-in model.
bool IsOnnxPath(std::string_view model);

// Steps 1-3 and 5. With `fits`, refuses a model too big for that config's DRAM before
// calibration (which can take minutes on a large model).
StatusOr<QuantizedModel> QuantizeModel(std::string_view model, const ModelPipelineOptions& options,
                                       const spec::NpuConfig* fits = nullptr);

// Step 4 for one config (the program's batch set).
StatusOr<CompiledModel> CompileForConfig(const QuantizedModel& model, const spec::NpuConfig& config,
                                         const CompileOptions& options);

// All five steps.
StatusOr<PreparedModel> PrepareModel(std::string_view model, const spec::NpuConfig& config,
                                     const ModelPipelineOptions& options = {});

}  // namespace npu::compiler
