// Built-in models: float NCHW graphs shaped like ONNX imports of the torchvision originals, with
// deterministic seeded weights, and deterministic inputs for them.
//
//   StatusOr<ir::Graph> g = BuildModel("resnet18");             // typed (shapes inferred)
//   std::vector<interp::HostTensor> in = MakeInputs(*g, 1);
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::workloads {

struct ModelOptions {
  int64_t batch = 1;
  int64_t image_size = 0;  // 0: the model's default; CNNs accept >= 32 (tests use small ones)
};

struct ModelInfo {
  std::string_view name;
  std::string_view summary;
  int64_t default_image_size;  // 0: not an image model
};

std::span<const ModelInfo> ListModels();

// The model, with every tensor's type inferred and verified. NotFound (listing the known names)
// for an unknown name, InvalidArgument for options the model cannot take.
StatusOr<compiler::ir::Graph> BuildModel(std::string_view name, const ModelOptions& options = {});

// One value per graph input, uniform in [-2, 2) (about the range of ImageNet-normalised pixels),
// the same for the same graph inputs and seed.
std::vector<compiler::interp::HostTensor> MakeInputs(const compiler::ir::Graph& graph,
                                                     uint32_t seed = 1);

// The builders behind BuildModel (options already resolved and checked).
compiler::ir::Graph BuildResNet18(const ModelOptions& options);
compiler::ir::Graph BuildMobileNetV2(const ModelOptions& options);
compiler::ir::Graph BuildSmallCnn(const ModelOptions& options);
compiler::ir::Graph BuildMlp(const ModelOptions& options);

}  // namespace npu::workloads
