// The built-in single-layer workloads: a named ConvLayer with deterministic data and its input
// tensor, for `run_workload <name>`, the end-to-end tests and the compiler's tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "hw/spec/status.h"

namespace npu::workloads {

struct Workload {
  std::string name;
  std::string description;
  compiler::ConvLayer layer;
  std::vector<int8_t> input;  // NHWC, layer.InputBytes() values
};

// "conv3x3", "fc", in a fixed order.
std::vector<std::string> SingleLayerWorkloadNames();

// NotFound listing the known names if `name` is not one of them.
StatusOr<Workload> MakeSingleLayerWorkload(std::string_view name);

}  // namespace npu::workloads
