// Built-in single-layer workloads as PreparedWorkloads; inputs from .npy files.
#include "tools/run_workload/workload_source.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstring>

#include "compiler/compile.h"
#include "compiler/reference/reference_conv.h"
#include "tools/common/npy.h"
#include "workloads/single_layer.h"

namespace npu::tools {

std::vector<std::pair<std::string, std::string>> BuiltinModels() {
  std::vector<std::pair<std::string, std::string>> models;
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
  const float* f = reinterpret_cast<const float*>(a.data.data());
  for (size_t i = 0; i < elements; ++i) {
    const double v = std::nearbyint(double(f[i]) / tensor.scale()) + tensor.zero_point();
    q[i] = static_cast<int8_t>(std::clamp(v, -128.0, 127.0));
  }
  return q;
}

StatusOr<PreparedWorkload> PrepareWorkload(const Options& options, const spec::NpuConfig& config) {
  NPU_ASSIGN_OR_RETURN(workloads::Workload w, workloads::MakeSingleLayerWorkload(options.model));
  PreparedWorkload p;
  p.name = w.name;
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
  if (!options.timing_only) {
    NPU_ASSIGN_OR_RETURN(std::vector<int8_t> expected,
                         compiler::ReferenceConv(w.layer, p.inputs[0]));
    p.expected.push_back(std::move(expected));
  }
  return p;
}

}  // namespace npu::tools
