// The model registry: names, option checks, shape inference, inputs.
#include "workloads/models/models.h"

#include <fmt/format.h>

#include <random>

#include "compiler/passes/passes.h"
#include "compiler/passes/pipeline.h"

namespace npu::workloads {
namespace {

namespace ir = compiler::ir;

struct Entry {
  ModelInfo info;
  ir::Graph (*build)(const ModelOptions&);
  int64_t min_image_size;  // the smallest size whose feature maps stay >= 1x1
  int64_t size_multiple;   // sizes must be multiples of this
};

constexpr Entry kModels[] = {
    {{"resnet18", "torchvision ResNet-18, 1000 classes, 1.81 GMACs at 224", 224},
     BuildResNet18,
     32,
     1},
    {{"mobilenet_v2", "torchvision MobileNetV2 1.0, 1000 classes, 301 MMACs at 224", 224},
     BuildMobileNetV2,
     32,
     1},
    {{"small_cnn", "3 convs (bn, relu, relu6, residual), maxpool, reshape-chain flatten, fc 10",
      32},
     BuildSmallCnn,
     2,
     2},
    {{"mlp", "784-256-128-10 perceptron with ReLU", 0}, BuildMlp, 0, 1},
};

std::string Names() {
  std::vector<std::string_view> names;
  for (const Entry& e : kModels) names.push_back(e.info.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

std::span<const ModelInfo> ListModels() {
  static const std::vector<ModelInfo> infos = [] {
    std::vector<ModelInfo> v;
    for (const Entry& e : kModels) v.push_back(e.info);
    return v;
  }();
  return infos;
}

StatusOr<ir::Graph> BuildModel(std::string_view name, const ModelOptions& options) {
  for (const Entry& e : kModels) {
    if (e.info.name != name) continue;
    ModelOptions resolved = options;
    if (resolved.image_size == 0) resolved.image_size = e.info.default_image_size;
    if (resolved.batch < 1) {
      return InvalidArgument(fmt::format("model {}: batch {} must be >= 1", name, options.batch));
    }
    if (e.info.default_image_size > 0 &&
        (resolved.image_size < e.min_image_size || resolved.image_size % e.size_multiple != 0)) {
      const std::string multiple =
          e.size_multiple > 1 ? fmt::format(" and a multiple of {}", e.size_multiple) : "";
      return InvalidArgument(fmt::format("model {}: image size {} must be >= {}{}", name,
                                         resolved.image_size, e.min_image_size, multiple));
    }
    ir::Graph g = e.build(resolved);
    compiler::passes::PassContext ctx;
    NPU_TRY(compiler::passes::InferShapes(g, ctx));
    NPU_TRY(compiler::passes::VerifyGraph(g));
    return g;
  }
  return NotFound(fmt::format("no model named '{}'; the models are: {}", name, Names()));
}

std::vector<compiler::interp::HostTensor> MakeInputs(const ir::Graph& graph, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<compiler::interp::HostTensor> inputs;
  for (const ir::Tensor* t : graph.inputs()) {
    compiler::interp::HostTensor h =
        compiler::interp::HostTensor::Zeros({t->dtype(), t->shape(), t->layout()});
    if (t->dtype() == ir::DType::kFloat32) {
      for (float& v : h.values<float>())
        v = -2.0f + 4.0f * static_cast<float>(rng() / 4294967296.0);
    }
    inputs.push_back(std::move(h));
  }
  return inputs;
}

}  // namespace npu::workloads
