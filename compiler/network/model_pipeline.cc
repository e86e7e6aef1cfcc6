// The model pipeline (steps in model_pipeline.h).
#include "compiler/network/model_pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include "compiler/codegen/program_builder.h"
#include "compiler/ir/fingerprint.h"
#include "compiler/network/batch.h"
#include "compiler/network/mixed_precision.h"
#include "compiler/passes/pipeline.h"
#include "compiler/qinterp/host_io.h"
#include "compiler/qinterp/qinterp.h"
#include "compiler/quantize/qdq_fold.h"
#include "hw/spec/config.h"
#include "workloads/models/layer_list.h"
#include "workloads/models/models.h"
#ifdef NPU_HAVE_ONNX
#include "compiler/onnx/onnx_import.h"
#endif

namespace npu::compiler {
namespace {

// Calibration samples --precision auto measures each assignment on (each costs an integer and
// a float interpretation per sample).
constexpr size_t kMixedPrecisionSamples = 2;

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Step 1.
StatusOr<ir::Graph> LoadFloatGraph(std::string_view model, const ModelPipelineOptions& o) {
  if (workloads::IsLayerListPath(model)) return workloads::BuildLayerList(std::string(model));
  if (!IsOnnxPath(model)) {
    return workloads::BuildModel(model, {.image_size = o.image_size});
  }
#ifdef NPU_HAVE_ONNX
  ImportOptions options;
  options.batch = 1;  // a symbolic batch: compiled per inference, run `batch` times
  return ImportOnnxFile(std::string(model), options);
#else
  return Unimplemented(
      fmt::format("{}: ONNX import (compiler/onnx) is not part of this build", model));
#endif
}

// The model's own batch (its inputs' first dim), made 1 so that it compiles per inference.
StatusOr<int64_t> Unbatch(ir::Graph& f) {
  int64_t batch = 1;
  for (ir::Tensor* t : f.inputs()) {
    if (t->shape().empty() || t->shape()[0] == 1) continue;
    if (batch != 1 && t->shape()[0] != batch) {
      return InvalidArgument(fmt::format("input '{}' has batch {}, another input {}", t->name(),
                                         t->shape()[0], batch));
    }
    batch = t->shape()[0];
    ir::Shape one = t->shape();
    one[0] = 1;
    t->set_shape(one);
  }
  return batch;
}

// Inference `i` of a [N, ...] value (the value itself if it has no batch to split).
interp::HostTensor Image(const interp::HostTensor& v, int64_t i, int64_t batch) {
  if (batch == 1 || v.shape.empty() || v.shape[0] != batch) return v;
  interp::HostTensor one = v;
  one.shape[0] = 1;
  const size_t bytes = v.data.size() / batch;
  one.data.assign(v.data.begin() + i * bytes, v.data.begin() + (i + 1) * bytes);
  return one;
}

// `batch` values of one inference stacked along the first dim.
interp::HostTensor Stack(const std::vector<interp::HostTensor>& images) {
  interp::HostTensor v = images[0];
  v.shape[0] = int64_t(images.size());
  for (size_t i = 1; i < images.size(); ++i) {
    v.data.insert(v.data.end(), images[i].data.begin(), images[i].data.end());
  }
  return v;
}

// Step 5: the quantised inputs, from the caller's float values or seeded ones.
StatusOr<std::vector<std::vector<int8_t>>> QuantisedInputs(const ir::Graph& f, const ir::Graph& q,
                                                           const ModelPipelineOptions& o,
                                                           int64_t batch) {
  std::vector<interp::HostTensor> values = o.inputs;
  if (values.empty()) {
    std::vector<std::vector<interp::HostTensor>> images;
    for (int64_t i = 0; i < batch; ++i) {
      images.push_back(workloads::MakeInputs(f, o.input_seed + uint32_t(i)));
    }
    for (size_t k = 0; k < images[0].size(); ++k) {
      std::vector<interp::HostTensor> per;
      for (const auto& image : images) per.push_back(image[k]);
      values.push_back(Stack(per));
    }
  }
  if (values.size() != q.inputs().size()) {
    return InvalidArgument(
        fmt::format("{} inputs given; the model takes {}", values.size(), q.inputs().size()));
  }
  std::vector<std::vector<int8_t>> inputs;
  for (size_t i = 0; i < values.size(); ++i) {
    NPU_ASSIGN_OR_RETURN(std::vector<int8_t> in, qinterp::QuantizeInput(*q.inputs()[i], values[i]));
    inputs.push_back(std::move(in));
  }
  return inputs;
}

// A bound no compile can beat, checked before calibration (which can take minutes on a large
// model): the weights as int8, and every inference's inputs and outputs, must fit the DRAM.
Status CheckFitsDram(const ir::Graph& g, const spec::NpuConfig& config, int64_t batch) {
  uint64_t weights = 0, io = 0;
  for (const ir::Tensor* t : g.tensors()) {
    if (t->is_constant() && t->dtype() == ir::DType::kFloat32)
      weights += ir::NumElements(t->shape());
  }
  for (const ir::Tensor* t : g.inputs()) io += ir::NumElements(t->shape());
  for (const ir::Tensor* t : g.outputs()) io += ir::NumElements(t->shape());
  const uint64_t needed = weights + io * uint64_t(batch), limit = DramLimitBytes(config);
  if (needed <= limit) return Status::Ok();
  return ResourceExhausted(fmt::format(
      "model '{}' needs at least {} bytes of DRAM ({} of int8 weights, {} of inputs and outputs "
      "for a batch of {}); the config's DRAM (and 32-bit offsets) allow {}",
      g.name(), needed, weights, io * uint64_t(batch), batch, limit));
}

// Step 3's samples: the caller's (each split per inference, the first calibration_limit of them),
// or seeded ones.
StatusOr<quantize::CalibrationSet> CalibrationSamples(const ir::Graph& f,
                                                      const ModelPipelineOptions& o) {
  quantize::CalibrationSet calibration;
  for (size_t i = 0; i < o.calibration.size(); ++i) {
    const std::vector<interp::HostTensor>& sample = o.calibration[i];
    const int64_t n = sample.empty() || sample[0].shape.empty() ? 1 : sample[0].shape[0];
    quantize::CalibrationSet pieces;
    for (int64_t k = 0; k < n; ++k) {
      std::vector<interp::HostTensor> one;
      for (const interp::HostTensor& v : sample) one.push_back(Image(v, k, n));
      pieces.samples.push_back(std::move(one));
    }
    // Checked here, where the value's origin is known, rather than by Quantize after merging.
    const std::string origin =
        i < o.calibration_names.size() ? o.calibration_names[i] : fmt::format("value {}", i);
    NPU_TRY(quantize::CheckCalibrationSet(f, pieces).WithContext("calibration " + origin));
    for (auto& one : pieces.samples) calibration.samples.push_back(std::move(one));
  }
  const int64_t given = int64_t(calibration.samples.size());
  if (o.calibration_limit > given && !o.calibration.empty()) {
    return InvalidArgument(
        fmt::format("{} calibration samples asked for; the calibration data holds {}",
                    o.calibration_limit, given));
  }
  if (o.calibration_limit > 0 && o.calibration_limit < given) {
    calibration.samples.resize(size_t(o.calibration_limit));
  }
  for (int s = 0; o.calibration.empty() && s < o.calibration_samples; ++s) {
    calibration.samples.push_back(
        workloads::MakeInputs(f, quantize::kCalibrationSeed + uint32_t(s)));
  }
  return calibration;
}

}  // namespace

bool IsOnnxPath(std::string_view model) {
  return model.size() > 5 && model.substr(model.size() - 5) == ".onnx";
}

namespace {

// Step 5: the inputs (quantised, or rounded to FP16) and the reference's outputs.
StatusOr<QuantizedModel> Finish(QuantizedModel p, const ModelPipelineOptions& o) {
  NPU_ASSIGN_OR_RETURN(p.inputs, QuantisedInputs(p.float_graph, p.batched, o, p.batch));
  for (const interp::HostTensor& v : o.inputs) p.float_inputs.push_back(Image(v, 0, p.batch));
  if (o.inputs.empty()) p.float_inputs = workloads::MakeInputs(p.float_graph, o.input_seed);
  if (o.compute_reference) {
    const Clock::time_point t = Clock::now();
    NPU_ASSIGN_OR_RETURN(p.expected, qinterp::InterpretQuantized(p.batched, p.inputs));
    p.reference_seconds = Since(t);
  }
  return p;
}

// Steps 3-5 for FP16: the conversion, the batch, the inputs rounded to FP16, the FP16 reference.
StatusOr<QuantizedModel> Fp16Model(QuantizedModel p, const ModelPipelineOptions& o) {
  const Clock::time_point t = Clock::now();
  NPU_ASSIGN_OR_RETURN(p.quantized, quantize::ConvertToFp16(p.float_graph));
  p.fp16 = true;
  p.quantize_seconds = Since(t);
  NPU_ASSIGN_OR_RETURN(p.batched, ReplicateBatch(p.quantized, p.batch));
  return Finish(std::move(p), o);
}

}  // namespace

StatusOr<QuantizedModel> QuantizeModel(std::string_view model, const ModelPipelineOptions& o,
                                       const spec::NpuConfig* fits) {
  QuantizedModel p;
  p.name = std::string(model);
  // 1-2. Float graph through the front end, for one inference.
  Clock::time_point t = Clock::now();
  NPU_ASSIGN_OR_RETURN(p.float_graph, LoadFloatGraph(model, o));
  p.model_fingerprint = ir::GraphFingerprint(p.float_graph);
  NPU_ASSIGN_OR_RETURN(const int64_t own_batch, Unbatch(p.float_graph));
  // The batch: asked for, else the model's own, else that of the inputs given.
  p.batch = o.batch > 0 ? o.batch : own_batch;
  if (o.batch == 0 && own_batch == 1 && !o.inputs.empty() && !o.inputs[0].shape.empty()) {
    p.batch = std::max<int64_t>(o.inputs[0].shape[0], 1);
  }
  passes::PassContext ctx;
  NPU_TRY(quantize::FoldQdq(p.float_graph, ctx).WithContext("fold-qdq"));
  const Status piped = passes::RunPipeline(p.float_graph, {}, ctx);
  if (!piped.ok() && own_batch > 1) {
    return piped.WithContext(fmt::format(
        "the model's batch of {} cannot be unrolled (compiled per inference)", own_batch));
  }
  NPU_TRY(piped);
  if (fits) NPU_TRY(CheckFitsDram(p.float_graph, *fits, p.batch));
  p.prepare_seconds = Since(t);
  // 3. Quantise on the caller's calibration samples, or seeded ones (FP16: convert).
  t = Clock::now();
  if (o.fp16) return Fp16Model(std::move(p), o);
  NPU_ASSIGN_OR_RETURN(const quantize::CalibrationSet calibration,
                       CalibrationSamples(p.float_graph, o));
  p.calibration_samples = int64_t(calibration.samples.size());
  p.calibration_observer = std::string(quantize::ObserverName(o.quantize.observer));
  p.weight_bits = o.quantize.weight_bits;
  p.auto_precision = o.auto_precision;
  // A target's mix is compared with every layer FP16 on the run's config (the default one when
  // the model is prepared for many), so the config is part of what decides it.
  const spec::NpuConfig cost_config = fits ? *fits : spec::DefaultConfig();
  // Under auto the choice is what the cache saves: the key names what decides it.
  const uint64_t cache_key = QuantizeCacheKey(
      o.quantize_cache.salt, p.model_fingerprint, o.quantize, calibration,
      !o.auto_precision ? std::string()
      : o.accuracy_target_db
          ? fmt::format("auto target {:a} dB on config {:016x}", *o.accuracy_target_db,
                        spec::Fingerprint(cost_config))
          : fmt::format("auto budget {:a} dB", o.accuracy_budget_db));
  // Under auto, the all-int8 twin is the plain int8 run's cache entry.
  quantize::QuantizeOptions int8_options = o.quantize;
  int8_options.weight_bits = 8;
  int8_options.int4_layers.clear();
  int8_options.fp16_layers.clear();
  const uint64_t int8_key =
      QuantizeCacheKey(o.quantize_cache.salt, p.model_fingerprint, int8_options, calibration);
  std::optional<ir::Graph> int8_twin;
  CacheLookup cached = LoadQuantized(o.quantize_cache.dir, cache_key);
  p.cache_notice = std::move(cached.notice);
  if (cached.graph) {
    p.quantized = *std::move(cached.graph);
    p.quantized_from_cache = true;
    if (o.auto_precision) int8_twin = LoadQuantized(o.quantize_cache.dir, int8_key).graph;
  } else if (o.auto_precision) {
    NPU_ASSIGN_OR_RETURN(const quantize::TensorRanges ranges,
                         quantize::CalibrateRanges(p.float_graph, calibration, o.quantize));
    const size_t measured = std::min(calibration.samples.size(), kMixedPrecisionSamples);
    const std::vector<std::vector<interp::HostTensor>> samples(
        calibration.samples.begin(), calibration.samples.begin() + measured);
    const PredictCycles cycles = [&](const std::set<std::string>& int4,
                                     const std::set<std::string>& fp16) -> StatusOr<uint64_t> {
      quantize::QuantizeOptions q = o.quantize;
      q.int4_layers = int4;
      q.fp16_layers = fp16;
      NPU_ASSIGN_OR_RETURN(const ir::Graph g, quantize::QuantizeWithRanges(p.float_graph, ranges, q));
      NPU_ASSIGN_OR_RETURN(const CompiledModel c, CompileModel(cost_config, g, o.compile));
      return c.cost.cycles;
    };
    NPU_ASSIGN_OR_RETURN(const MixedPrecision mp,
                         ChooseMixedPrecision(p.float_graph, ranges, o.quantize, samples,
                                              {o.accuracy_budget_db, o.accuracy_target_db, cycles}));
    p.mixed_precision = FormatMixedPrecision(mp);
    quantize::QuantizeOptions chosen = o.quantize;
    chosen.int4_layers = mp.int4_layers;
    chosen.fp16_layers = mp.fp16_layers;
    NPU_ASSIGN_OR_RETURN(p.quantized,
                         quantize::QuantizeWithRanges(p.float_graph, ranges, chosen));
    std::string stored = StoreQuantized(o.quantize_cache.dir, cache_key, p.quantized);
    if (!stored.empty()) p.cache_notice = std::move(stored);
    NPU_ASSIGN_OR_RETURN(int8_twin,
                         quantize::QuantizeWithRanges(p.float_graph, ranges, int8_options));
    stored = StoreQuantized(o.quantize_cache.dir, int8_key, *int8_twin);
    if (!stored.empty()) p.cache_notice = std::move(stored);
  } else {
    NPU_ASSIGN_OR_RETURN(p.quantized, quantize::Quantize(p.float_graph, calibration, o.quantize));
    std::string stored = StoreQuantized(o.quantize_cache.dir, cache_key, p.quantized);
    if (!stored.empty()) p.cache_notice = std::move(stored);
  }
  p.quantize_seconds = Since(t);
  for (const ir::Node* n : p.quantized.nodes()) {
    if (n->attrs().GetInt("weight_bits", 8) == 4) p.int4_layers.push_back(n->name());
    const bool mac = n->kind() == ir::OpKind::kFusedConv || n->kind() == ir::OpKind::kGemm;
    if (mac && n->output(0)->dtype() == ir::DType::kFloat16) p.fp16_layers.push_back(n->name());
  }
  NPU_ASSIGN_OR_RETURN(p.batched, ReplicateBatch(p.quantized, p.batch));
  if (int8_twin) {
    NPU_ASSIGN_OR_RETURN(ir::Graph twin, ReplicateBatch(*int8_twin, p.batch));
    p.int8_twin = std::make_shared<const ir::Graph>(std::move(twin));
  }
  return Finish(std::move(p), o);
}

StatusOr<CompiledModel> CompileForConfig(const QuantizedModel& model, const spec::NpuConfig& config,
                                         const CompileOptions& options) {
  NPU_TRY(CheckFitsDram(model.float_graph, config, model.batch));
  StatusOr<CompiledModel> compiled = CompileModel(config, model.batched, options);
  if (!compiled.ok()) return compiled.status().WithContext(fmt::format("compiling {}", model.name));
  compiled->program.set_batch(static_cast<uint32_t>(model.batch));
  return compiled;
}

StatusOr<PreparedModel> PrepareModel(std::string_view model, const spec::NpuConfig& config,
                                     const ModelPipelineOptions& o) {
  PreparedModel p;
  NPU_ASSIGN_OR_RETURN(static_cast<QuantizedModel&>(p), QuantizeModel(model, o, &config));
  const Clock::time_point t = Clock::now();
  NPU_ASSIGN_OR_RETURN(p.compiled, CompileForConfig(p, config, o.compile));
  p.compile_seconds = Since(t);
  return p;
}

}  // namespace npu::compiler
