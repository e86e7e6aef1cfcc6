// Two small models for fast tests:
//   small_cnn: 32x32 RGB -> conv3x3(16) bn relu -> maxpool 2x2/2 -> conv3x3(32) bn relu6 -> conv3x3
//     (32) with bias + Add residual + relu -> flatten (the Shape/Gather/Unsqueeze/Concat/Reshape
//     chain of older exporters, over a 16x16 map, so the layout pass must keep NCHW element order)
//     -> fc 8192 -> 10.
//   mlp: 784 -> 256 relu -> 128 relu -> 10.
#include "workloads/models/model_builder.h"
#include "workloads/models/models.h"

namespace npu::workloads {

namespace ir = compiler::ir;

ir::Graph BuildSmallCnn(const ModelOptions& options) {
  ModelBuilder b("small_cnn", 7);
  const int64_t size = options.image_size;
  ir::Tensor* x = b.Input("input", {options.batch, 3, size, size});
  x = b.Relu(b.BatchNorm(b.Conv(x, "conv1", 3, 16, 3, 1, 1), "bn1", 16), "relu1");
  x = b.MaxPool(x, "pool1", 2, 2, 0);
  x = b.Relu6(b.BatchNorm(b.Conv(x, "conv2", 16, 32, 3, 1, 1), "bn2", 32), "relu2");
  ir::Tensor* y = b.Conv(x, "conv3", 32, 32, 3, 1, 1, 1, /*bias=*/true);
  x = b.Relu(b.Add(y, x, "add"), "relu3");
  x = b.FlattenByShapeChain(x, "flatten");
  const int64_t features = 32 * (size / 2) * (size / 2);
  return b.Finish({b.Linear(x, "fc", features, 10)});
}

ir::Graph BuildMlp(const ModelOptions& options) {
  ModelBuilder b("mlp", 3);
  ir::Tensor* x = b.Input("input", {options.batch, 784});
  x = b.Relu(b.Linear(x, "fc1", 784, 256), "relu1");
  x = b.Relu(b.Linear(x, "fc2", 256, 128), "relu2");
  return b.Finish({b.Linear(x, "fc3", 128, 10)});
}

}  // namespace npu::workloads
