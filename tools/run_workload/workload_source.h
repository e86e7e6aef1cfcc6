// Turning a MODEL argument into what the platform runs: the compiled program, the quantised
// inputs, the integer reference's outputs to check against and, for whole models, what the
// accuracy report needs. MODEL is a built-in model (workloads/models: resnet18, mobilenet_v2,
// ...), a built-in single-layer workload (conv3x3, fc), or an .onnx file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "compiler/network/model_pipeline.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"
#include "platform/report/tuning_summary.h"
#include "tools/run_workload/options.h"

namespace npu::tools {

struct PreparedWorkload {
  std::string name;
  spec::Program program;
  std::string binary;  // a .npub's bytes, handed to the firmware as they are; empty: seal `program`
  std::vector<std::vector<int8_t>> inputs;    // one per program input, quantised
  std::vector<std::vector<int8_t>> expected;  // integer reference outputs; empty: not computed
  std::string unchecked_reason;  // why outputs computed cannot be checked (no reference), or ""
  double compile_seconds = 0;    // front end, quantisation and compilation
  // Whole models only: the float and quantised graphs and the float input the run used, shared
  // by every config the model is compiled for.
  std::shared_ptr<const compiler::QuantizedModel> model;
  int64_t batch = 1;            // inferences per run
  uint64_t model_checksum = 0;  // CRC-64 of the model (ir/fingerprint.h; single layers: data)
  // --precision auto: the program and the same model all int8, as the compiler predicts them.
  struct PrecisionComparison {
    uint64_t int4_layers = 0, fp16_layers = 0;
    uint64_t int8_cycles = 0, int8_dram_bytes = 0, cycles = 0, dram_bytes = 0;
  };
  std::optional<PrecisionComparison> precision;
  std::optional<report::TuningSummary> tuning;  // --tune or a stored tuning
  std::string compile_report;  // whole models: compiler::CompileReport of the compile
};

// The names --list shows, each with a one-line description.
std::vector<std::pair<std::string, std::string>> BuiltinModels();

// What does not depend on the config, done once however many configs a run compiles for
// (run_workload --points): a whole model's front end, quantisation, input and reference; for a
// single-layer workload, nothing (its compilation is all there is).
struct WorkloadSource {
  std::shared_ptr<const compiler::QuantizedModel> model;  // null: a single-layer workload
};

// With `fits`, a model too big for that config's DRAM is refused before calibration.
StatusOr<WorkloadSource> LoadWorkloadSource(const Options& options,
                                            const spec::NpuConfig* fits = nullptr);

// The source compiled for one config, with its inputs and expected outputs.
StatusOr<PreparedWorkload> CompileWorkload(const WorkloadSource& source, const Options& options,
                                           const spec::NpuConfig& config);

// LoadWorkloadSource, then CompileWorkload.
StatusOr<PreparedWorkload> PrepareWorkload(const Options& options, const spec::NpuConfig& config);

// A float32 .npy as the float model's input (NCHW for images, as the model takes it).
StatusOr<compiler::interp::HostTensor> FloatInput(const std::string& path);

// Quantises a float32 .npy (or takes an int8 one) for a program input.
StatusOr<std::vector<int8_t>> InputFromNpy(const std::string& path, const spec::TensorDesc& tensor);

}  // namespace npu::tools
