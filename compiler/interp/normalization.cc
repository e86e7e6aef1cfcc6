// BatchNormalization (inference form, channel axis by layout) and Softmax (ONNX opset 13: one
// axis, default -1).
#include <cmath>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {

StatusOr<Types> BatchNormRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 5, 5));
  if (node.num_outputs() != 1) {
    return Unimplemented("training-mode BatchNormalization (running mean/var outputs)");
  }
  for (size_t i = 0; i < 5; ++i) NPU_TRY(ExpectDType(in, i, ir::DType::kFloat32));
  if (in[0].rank() < 2) return InvalidArgument("input must have a channel axis (rank >= 2)");
  const int64_t channels =
      in[0].rank() == 4 ? ActDims(in[0]).c : in[0].shape[1];  // ONNX: axis 1 unless NHWC
  for (size_t i = 1; i < 5; ++i) {
    if (in[i].shape != ir::Shape{channels}) {
      return InvalidArgument(fmt::format("input {} has shape {}, expected [{}] (one per channel)",
                                         i, ir::ShapeText(in[i].shape), channels));
    }
  }
  return Types{in[0].rank() == 4 ? TensorType{ir::DType::kFloat32, in[0].shape, ActLayout(in[0])}
                                 : TensorType{ir::DType::kFloat32, in[0].shape, in[0].layout}};
}

Status BatchNormKernel(const ir::Node& node, Inputs in, Outputs out) {
  // y = (x - mean) / sqrt(var + eps) * scale + B  ==  x * a + b per channel.
  const float eps = node.attrs().GetFloat("epsilon", 1e-5f);
  const auto scale = in[1].values<float>(), bias = in[2].values<float>();
  const auto mean = in[3].values<float>(), var = in[4].values<float>();
  const int64_t channels = static_cast<int64_t>(scale.size());
  std::vector<float> a(channels), b(channels);
  for (int64_t c = 0; c < channels; ++c) {
    a[c] = scale[c] / std::sqrt(var[c] + eps);
    b[c] = bias[c] - mean[c] * a[c];
  }
  // Channel c of element i: NHWC -> i % C; otherwise (i / inner) % C, inner = product after C.
  const bool nhwc = in[0].rank() == 4 && in[0].layout == ir::Layout::kNHWC;
  int64_t inner = 1;
  for (int64_t d = 2; d < in[0].rank() && !nhwc; ++d) inner *= in[0].shape[d];
  const std::span<const float> x = in[0].values<float>();
  const std::span<float> y = out[0].values<float>();
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t c = nhwc ? int64_t(i) % channels : (int64_t(i) / inner) % channels;
    y[i] = x[i] * a[c] + b[c];
  }
  return Status::Ok();
}

StatusOr<Types> SoftmaxRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 1));
  NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  NPU_TRY(NormalizeAxis(node.attrs().GetInt("axis", -1), in[0].rank()).status());
  return Types{{ir::DType::kFloat32, in[0].shape, in[0].layout}};
}

Status SoftmaxKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const int64_t axis,
                       NormalizeAxis(node.attrs().GetInt("axis", -1), in[0].rank()));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= in[0].shape[d];
  for (int64_t d = axis + 1; d < in[0].rank(); ++d) inner *= in[0].shape[d];
  const int64_t len = in[0].shape[axis];
  const float* x = in[0].values<float>().data();
  float* y = out[0].values<float>().data();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * len * inner + i;
      float m = -INFINITY;
      for (int64_t k = 0; k < len; ++k) m = std::max(m, x[base + k * inner]);
      double sum = 0;
      for (int64_t k = 0; k < len; ++k) {
        y[base + k * inner] = std::exp(x[base + k * inner] - m);
        sum += y[base + k * inner];
      }
      for (int64_t k = 0; k < len; ++k) y[base + k * inner] /= static_cast<float>(sum);
    }
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
