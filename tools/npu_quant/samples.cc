// Sample sets from .npy files or seeds.
#include "tools/npu_quant/samples.h"

#include <fmt/format.h>

#include <cstring>

#include "tools/common/npy.h"
#include "workloads/models/models.h"

namespace npu::tools {
namespace {

namespace ir = compiler::ir;
using compiler::interp::HostTensor;

// The samples in one array: its shape is the input's, or [S] + the input's shape without its 1.
StatusOr<Samples> Split(const NpyArray& a, const ir::Tensor& input, const std::string& file) {
  const ir::Shape& want = input.shape();
  const ir::Shape stacked_tail(want.begin() + (want.empty() ? 0 : 1), want.end());
  const bool single = a.shape == want;
  const bool stacked = !want.empty() && want[0] == 1 && a.shape.size() == want.size() &&
                       ir::Shape(a.shape.begin() + 1, a.shape.end()) == stacked_tail;
  if (a.dtype != "<f4" || !(single || stacked)) {
    return InvalidArgument(fmt::format(
        "{}: input '{}' takes float32 {} (or a stack [S,...] of them); the file holds {} {}", file,
        input.name(), ir::ShapeText(want), a.dtype, ir::ShapeText(a.shape)));
  }
  NPU_TRY(FiniteFloats(a, file).status());
  const int64_t count = single ? 1 : a.shape[0];
  const size_t bytes = static_cast<size_t>(ir::NumElements(want)) * sizeof(float);
  Samples out;
  for (int64_t s = 0; s < count; ++s) {
    HostTensor t = HostTensor::Zeros({ir::DType::kFloat32, want, input.layout()});
    std::memcpy(t.data.data(), a.data.data() + s * bytes, bytes);
    out.push_back({std::move(t)});
  }
  return out;
}

}  // namespace

StatusOr<Samples> SamplesFromNpy(const ir::Graph& graph, const std::vector<std::string>& files) {
  if (graph.inputs().size() != 1) {
    return InvalidArgument(
        fmt::format("graph '{}' has {} inputs; .npy samples are supported for single-input graphs",
                    graph.name(), graph.inputs().size()));
  }
  Samples all;
  for (const std::string& file : files) {
    NPU_ASSIGN_OR_RETURN(const NpyArray a, ReadNpyFile(file));
    NPU_ASSIGN_OR_RETURN(Samples s, Split(a, *graph.inputs()[0], file));
    for (auto& sample : s) all.push_back(std::move(sample));
  }
  return all;
}

Samples SeededSamples(const ir::Graph& graph, uint32_t first_seed, int count) {
  Samples out;
  for (int i = 0; i < count; ++i) {
    out.push_back(workloads::MakeInputs(graph, first_seed + static_cast<uint32_t>(i)));
  }
  return out;
}

}  // namespace npu::tools
