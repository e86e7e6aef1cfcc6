// The model pipeline (steps in model_pipeline.h).
#include "compiler/network/model_pipeline.h"

#include <fmt/format.h>

#include <chrono>

#include "compiler/passes/pipeline.h"
#include "compiler/qinterp/host_io.h"
#include "compiler/qinterp/qinterp.h"
#include "compiler/quantize/qdq_fold.h"
#include "workloads/models/models.h"
#ifdef NPU_HAVE_ONNX
#include "compiler/onnx/onnx_import.h"
#endif

namespace npu::compiler {
namespace {

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Step 1.
StatusOr<ir::Graph> LoadFloatGraph(std::string_view model, const ModelPipelineOptions& o) {
  if (!IsOnnxPath(model)) {
    return workloads::BuildModel(model, {.image_size = o.image_size});
  }
#ifdef NPU_HAVE_ONNX
  return ImportOnnxFile(std::string(model));
#else
  return Unimplemented(
      fmt::format("{}: ONNX import (compiler/onnx) is not part of this build", model));
#endif
}

// Step 5: the quantised inputs, from the caller's float values or a seeded one.
StatusOr<std::vector<std::vector<int8_t>>> QuantisedInputs(const ir::Graph& f, const ir::Graph& q,
                                                           const ModelPipelineOptions& o) {
  const std::vector<interp::HostTensor> values =
      o.inputs.empty() ? workloads::MakeInputs(f, o.input_seed) : o.inputs;
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

}  // namespace

bool IsOnnxPath(std::string_view model) {
  return model.size() > 5 && model.substr(model.size() - 5) == ".onnx";
}

StatusOr<PreparedModel> PrepareModel(std::string_view model, const spec::NpuConfig& config,
                                     const ModelPipelineOptions& o) {
  PreparedModel p;
  p.name = std::string(model);
  // 1-2. Float graph through the front end.
  Clock::time_point t = Clock::now();
  NPU_ASSIGN_OR_RETURN(p.float_graph, LoadFloatGraph(model, o));
  passes::PassContext ctx;
  NPU_TRY(quantize::FoldQdq(p.float_graph, ctx).WithContext("fold-qdq"));
  NPU_TRY(passes::RunPipeline(p.float_graph, {}, ctx));
  p.prepare_seconds = Since(t);
  // 3. Quantise on the caller's calibration samples, or seeded ones.
  t = Clock::now();
  quantize::CalibrationSet calibration{o.calibration};
  for (int s = 0; o.calibration.empty() && s < o.calibration_samples; ++s) {
    calibration.samples.push_back(
        workloads::MakeInputs(p.float_graph, quantize::kCalibrationSeed + uint32_t(s)));
  }
  NPU_ASSIGN_OR_RETURN(p.quantized, quantize::Quantize(p.float_graph, calibration, o.quantize));
  p.quantize_seconds = Since(t);
  // 4. Compile.
  t = Clock::now();
  StatusOr<CompiledModel> compiled = CompileModel(config, p.quantized, o.compile);
  if (!compiled.ok()) return compiled.status().WithContext(fmt::format("compiling {}", model));
  p.compiled = *std::move(compiled);
  p.compile_seconds = Since(t);
  // 5. Inputs and the integer reference.
  NPU_ASSIGN_OR_RETURN(p.inputs, QuantisedInputs(p.float_graph, p.quantized, o));
  if (o.compute_reference) {
    t = Clock::now();
    NPU_ASSIGN_OR_RETURN(p.expected, qinterp::InterpretQuantized(p.quantized, p.inputs));
    p.reference_seconds = Since(t);
  }
  return p;
}

}  // namespace npu::compiler
