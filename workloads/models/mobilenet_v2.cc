// torchvision.models.mobilenet_v2 (width 1.0) as its ONNX export looks in eval mode, without the
// classifier's Dropout (an inference no-op): a 3x3/2 stem conv to 32 channels, 17 inverted
// residual blocks (expansion t: 1x1 conv to t*C + bn + ReLU6, 3x3 depthwise conv (group = t*C)
// + bn + ReLU6, linear 1x1 projection + bn, a residual Add when stride 1 and C_in == C_out), a
// 1x1 conv to 1280 + bn + ReLU6, global average pool, flatten, Linear 1280 -> 1000. ReLU6 is
// Clip(0, 6). 300.8 MMACs at 224x224.
#include <fmt/format.h>

#include "workloads/models/model_builder.h"
#include "workloads/models/models.h"

namespace npu::workloads {
namespace {

namespace ir = compiler::ir;

ir::Tensor* ConvBnRelu6(ModelBuilder& b, ir::Tensor* x, const std::string& name, int64_t in_c,
                        int64_t out_c, int64_t k, int64_t stride, int64_t groups) {
  x = b.Conv(x, name + ".0", in_c, out_c, k, stride, (k - 1) / 2, groups);
  return b.Relu6(b.BatchNorm(x, name + ".1", out_c), name + ".2");
}

ir::Tensor* InvertedResidual(ModelBuilder& b, ir::Tensor* x, const std::string& name, int64_t in_c,
                             int64_t out_c, int64_t stride, int64_t expand) {
  const int64_t hidden = in_c * expand;
  ir::Tensor* y = x;
  int layer = 0;
  if (expand != 1)
    y = ConvBnRelu6(b, y, fmt::format("{}.conv.{}", name, layer++), in_c, hidden, 1, 1, 1);
  y = ConvBnRelu6(b, y, fmt::format("{}.conv.{}", name, layer++), hidden, hidden, 3, stride,
                  hidden);
  y = b.Conv(y, fmt::format("{}.conv.{}", name, layer), hidden, out_c, 1, 1, 0);
  y = b.BatchNorm(y, fmt::format("{}.conv.{}", name, layer + 1), out_c);
  return stride == 1 && in_c == out_c ? b.Add(x, y, name + ".add") : y;
}

}  // namespace

ir::Graph BuildMobileNetV2(const ModelOptions& options) {
  ModelBuilder b("mobilenet_v2", 2);
  const int64_t size = options.image_size;
  ir::Tensor* x = b.Input("input", {options.batch, 3, size, size});
  x = ConvBnRelu6(b, x, "features.0", 3, 32, 3, 2, 1);
  // (expansion t, output channels c, repeats n, first stride s), as in torchvision.
  constexpr int64_t kSettings[][4] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                      {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  int64_t in_c = 32, index = 1;
  for (const auto& s : kSettings) {
    for (int64_t i = 0; i < s[2]; ++i, ++index) {
      x = InvertedResidual(b, x, fmt::format("features.{}", index), in_c, s[1], i == 0 ? s[3] : 1,
                           s[0]);
      in_c = s[1];
    }
  }
  x = ConvBnRelu6(b, x, fmt::format("features.{}", index), in_c, 1280, 1, 1, 1);
  x = b.Flatten(b.GlobalAveragePool(x, "avgpool"), "flatten");
  return b.Finish({b.Linear(x, "classifier.1", 1280, 1000)});
}

}  // namespace npu::workloads
