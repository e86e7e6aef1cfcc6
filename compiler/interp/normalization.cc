// BatchNormalization (inference form, channel axis by layout), Softmax (ONNX opset 13: one
// axis, default -1) and LayerNormalization (opset 17).
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

namespace npu::compiler::interp {

// LayerNormalization (opset 17): X, Scale[, B] -> Y; normalises over the dims from `axis` (-1)
// to the end: (x - mean) / sqrt(var + epsilon) * Scale + B, with the biased variance; Scale and
// B broadcast against those dims. The Mean and InvStdDev outputs (training) are not supported.
StatusOr<Types> LayerNormRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 3));
  if (node.num_outputs() != 1) return Unimplemented("LayerNormalization's Mean/InvStdDev outputs");
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].present()) NPU_TRY(ExpectDType(in, i, ir::DType::kFloat32));
  }
  NPU_ASSIGN_OR_RETURN(const int64_t axis,
                       NormalizeAxis(node.attrs().GetInt("axis", -1), in[0].rank()));
  const ir::Shape normalized(in[0].shape.begin() + axis, in[0].shape.end());
  for (size_t i = 1; i < in.size(); ++i) {
    if (!in[i].present()) continue;
    ir::Shape s = in[i].shape;
    while (!s.empty() && s.front() == 1 && s.size() > normalized.size()) s.erase(s.begin());
    if (s != normalized && in[i].num_elements() != 1) {
      return InvalidArgument(fmt::format("input {} has shape {}; the normalised dims are {}", i,
                                         ir::ShapeText(in[i].shape), ir::ShapeText(normalized)));
    }
  }
  return Types{{ir::DType::kFloat32, in[0].shape, in[0].layout}};
}

Status LayerNormKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const int64_t axis,
                       NormalizeAxis(node.attrs().GetInt("axis", -1), in[0].rank()));
  const float eps = node.attrs().GetFloat("epsilon", 1e-5f);
  int64_t len = 1;
  for (int64_t d = axis; d < in[0].rank(); ++d) len *= in[0].shape[d];
  const std::span<const float> x = in[0].values<float>();
  const std::span<const float> scale = in[1].values<float>();
  const bool has_bias = in.size() > 2 && in[2].present();
  const std::span<const float> bias = has_bias ? in[2].values<float>() : std::span<const float>();
  const std::span<float> y = out[0].values<float>();
  for (size_t row = 0; len > 0 && row < x.size(); row += len) {
    double sum = 0, sq = 0;
    for (int64_t k = 0; k < len; ++k) sum += x[row + k];
    const double mean = sum / double(len);
    for (int64_t k = 0; k < len; ++k) sq += (x[row + k] - mean) * (x[row + k] - mean);
    const double inv = 1.0 / std::sqrt(sq / double(len) + eps);
    for (int64_t k = 0; k < len; ++k) {
      const float g = scale.size() == 1 ? scale[0] : scale[k];
      const float b = !has_bias ? 0.0f : bias.size() == 1 ? bias[0] : bias[k];
      y[row + k] = static_cast<float>((x[row + k] - mean) * inv) * g + b;
    }
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
