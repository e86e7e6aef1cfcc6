// The built-in single-layer workloads, listed explicitly (no static registration).
#include "workloads/single_layer.h"

#include <fmt/format.h>

#include "workloads/synthetic_conv.h"

namespace npu::workloads {
namespace {

struct Entry {
  const char* name;
  const char* description;
  SyntheticConvSpec (*spec)();
};

// A ResNet-style 3x3 block: 56x56x64 -> 64, stride 1, same padding, ReLU.
SyntheticConvSpec Conv3x3() {
  SyntheticConvSpec s;
  s.name = "conv3x3";
  s.in_h = 56, s.in_w = 56, s.in_c = 64, s.out_c = 64;
  s.kernel_h = s.kernel_w = 3;
  SetSamePadding(s);
  s.activation = Activation::kRelu;
  s.input_scale = 0.04f;
  s.input_zero_point = 12;
  s.output_zero_point = -20;
  s.seed = 0x3C3;
  return s;
}

// A classifier head: 512 features -> 1000 logits, no activation.
SyntheticConvSpec FullyConnected() {
  SyntheticConvSpec s;
  s.name = "fc";
  s.fully_connected = true;
  s.in_c = 512, s.out_c = 1000;
  s.input_scale = 0.06f;
  s.input_zero_point = -5;
  s.output_zero_point = 3;
  s.seed = 0xFC;
  return s;
}

constexpr Entry kWorkloads[] = {
    {"conv3x3", "56x56x64 -> 64, 3x3, stride 1, pad 1, ReLU", Conv3x3},
    {"fc", "1x1x512 -> 1000 fully connected, no activation", FullyConnected},
};

}  // namespace

std::vector<std::string> SingleLayerWorkloadNames() {
  std::vector<std::string> names;
  for (const Entry& e : kWorkloads) names.emplace_back(e.name);
  return names;
}

StatusOr<Workload> MakeSingleLayerWorkload(std::string_view name) {
  for (const Entry& e : kWorkloads) {
    if (name != e.name) continue;
    const SyntheticConvSpec spec = e.spec();
    NPU_ASSIGN_OR_RETURN(compiler::ConvLayer layer, MakeSyntheticConv(spec));
    std::vector<int8_t> input = MakeInputTensor(layer.InputBytes(), spec.seed + 1);
    return Workload{e.name, e.description, std::move(layer), std::move(input)};
  }
  return NotFound(fmt::format("no single-layer workload '{}'; known: {}", name,
                              fmt::join(SingleLayerWorkloadNames(), ", ")));
}

}  // namespace npu::workloads
