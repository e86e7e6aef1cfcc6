// torchvision.models.resnet18 as its ONNX export looks (eval mode): conv1 7x7/2 pad 3, bn, relu,
// maxpool 3x3/2 pad 1, four stages of two BasicBlocks (64, 128, 256, 512 channels; the first
// block of stages 2-4 has stride 2 and a 1x1/2 conv + bn downsample), global average pool,
// flatten, fc 512 -> 1000. 1.814 GMACs at 224x224.
#include <fmt/format.h>

#include "workloads/models/model_builder.h"
#include "workloads/models/models.h"

namespace npu::workloads {
namespace {

namespace ir = compiler::ir;

ir::Tensor* BasicBlock(ModelBuilder& b, ir::Tensor* x, const std::string& name, int64_t in_c,
                       int64_t out_c, int64_t stride) {
  ir::Tensor* y = b.Conv(x, name + ".conv1", in_c, out_c, 3, stride, 1);
  y = b.Relu(b.BatchNorm(y, name + ".bn1", out_c), name + ".relu");
  y = b.BatchNorm(b.Conv(y, name + ".conv2", out_c, out_c, 3, 1, 1), name + ".bn2", out_c);
  ir::Tensor* identity = x;
  if (stride != 1 || in_c != out_c) {
    identity = b.Conv(x, name + ".downsample.0", in_c, out_c, 1, stride, 0);
    identity = b.BatchNorm(identity, name + ".downsample.1", out_c);
  }
  return b.Relu(b.Add(y, identity, name + ".add"), name + ".relu_1");
}

}  // namespace

ir::Graph BuildResNet18(const ModelOptions& options) {
  ModelBuilder b("resnet18", 18);
  const int64_t size = options.image_size;
  ir::Tensor* x = b.Input("input", {options.batch, 3, size, size});
  x = b.Relu(b.BatchNorm(b.Conv(x, "conv1", 3, 64, 7, 2, 3), "bn1", 64), "relu");
  x = b.MaxPool(x, "maxpool", 3, 2, 1);
  const int64_t widths[] = {64, 128, 256, 512};
  int64_t in_c = 64;
  for (int stage = 0; stage < 4; ++stage) {
    for (int block = 0; block < 2; ++block) {
      const int64_t stride = stage > 0 && block == 0 ? 2 : 1;
      x = BasicBlock(b, x, fmt::format("layer{}.{}", stage + 1, block), in_c, widths[stage],
                     stride);
      in_c = widths[stage];
    }
  }
  x = b.Flatten(b.GlobalAveragePool(x, "avgpool"), "flatten");
  return b.Finish({b.Linear(x, "fc", 512, 1000)});
}

}  // namespace npu::workloads
