// Turning a MODEL argument into what the platform runs: the compiled program, the quantised
// inputs, the integer reference's outputs to check against and, for whole models, what the
// accuracy report needs. MODEL is a built-in model (workloads/models: resnet18, mobilenet_v2,
// ...), a built-in single-layer workload (conv3x3, fc), or an .onnx file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"
#include "tools/run_workload/options.h"

namespace npu::tools {

struct PreparedWorkload {
  std::string name;
  spec::Program program;
  std::vector<std::vector<int8_t>> inputs;    // one per program input, quantised
  std::vector<std::vector<int8_t>> expected;  // integer reference outputs; empty: not computed
  double compile_seconds = 0;                 // front end, quantisation and compilation
  // Whole models only: the float graph, the quantised graph and the float input the run used.
  std::optional<compiler::ir::Graph> float_graph, quantized;
  std::vector<compiler::interp::HostTensor> float_inputs;  // the first inference's
  int64_t batch = 1;                                       // inferences per run
  uint64_t model_checksum = 0;  // CRC-64 of the model (ir/fingerprint.h; single layers: data)
};

// The names --list shows, each with a one-line description.
std::vector<std::pair<std::string, std::string>> BuiltinModels();

StatusOr<PreparedWorkload> PrepareWorkload(const Options& options, const spec::NpuConfig& config);

// Quantises a float32 .npy (or takes an int8 one) for a program input.
StatusOr<std::vector<int8_t>> InputFromNpy(const std::string& path, const spec::TensorDesc& tensor);

}  // namespace npu::tools
