// Synthetic layer generation.
#include "workloads/synthetic_conv.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "compiler/quant/quant_math.h"

namespace npu::workloads {
namespace {

// Portable draws from mt19937's raw 32-bit outputs.
class Draw {
 public:
  explicit Draw(uint32_t seed) : rng_(seed) {}
  double Unit() { return rng_() / 4294967296.0; }  // [0, 1)
  int32_t Int(int32_t lo, int32_t hi) {            // [lo, hi]
    return lo + static_cast<int32_t>(rng_() % static_cast<uint32_t>(hi - lo + 1));
  }

 private:
  std::mt19937 rng_;
};

compiler::ConvLayer Shape(const SyntheticConvSpec& s) {
  compiler::ConvLayer l;
  l.name = s.name;
  l.fully_connected = s.fully_connected;
  l.in_h = s.in_h, l.in_w = s.in_w, l.in_c = s.in_c, l.out_c = s.out_c;
  l.kernel_h = s.kernel_h, l.kernel_w = s.kernel_w;
  l.stride_h = s.stride_h, l.stride_w = s.stride_w;
  l.dilation_h = s.dilation_h, l.dilation_w = s.dilation_w;
  l.pad_top = s.pad_top, l.pad_left = s.pad_left;
  l.pad_bottom = s.pad_bottom, l.pad_right = s.pad_right;
  l.input_scale = s.input_scale;
  l.input_zero_point = s.input_zero_point;
  l.output_zero_point = s.output_zero_point;
  return l;
}

// Weights with a per-channel amplitude in [48, 127] (a symmetric per-channel quantiser maps each
// channel's largest weight near 127); returns each channel's real weight scale.
std::vector<double> FillWeights(compiler::ConvLayer& l, Draw& draw) {
  const uint64_t k = l.ReductionSize();
  l.weights.resize(uint64_t{l.out_c} * k);
  std::vector<double> weight_scale(l.out_c);
  for (uint32_t n = 0; n < l.out_c; ++n) {
    const int32_t amplitude = draw.Int(48, 127);
    for (uint64_t i = 0; i < k; ++i) {
      l.weights[n * k + i] = static_cast<int8_t>(draw.Int(-amplitude, amplitude));
    }
    weight_scale[n] = (0.5 + draw.Unit()) * 0.004;
  }
  return weight_scale;
}

}  // namespace

StatusOr<compiler::ConvLayer> MakeSyntheticConv(const SyntheticConvSpec& s) {
  compiler::ConvLayer l = Shape(s);
  l.bias.assign(l.out_c, 0);
  l.multiplier.assign(l.out_c, 1 << 30);
  l.shift.assign(l.out_c, 1);
  l.weights.assign(uint64_t{l.out_c} * l.ReductionSize(), 0);
  NPU_TRY(compiler::CheckLayer(l));  // shape errors before sizing anything by them
  Draw draw(s.seed);
  const std::vector<double> weight_scale = FillWeights(l, draw);
  // 1. Spread of the accumulator: sqrt(K) x rms(x - zp) x rms(w) for uniform inputs and weights.
  const double zp_offset = -0.5 - s.input_zero_point;
  const double x_rms = std::sqrt(65536.0 / 12 + zp_offset * zp_offset);
  const double acc_rms = std::sqrt(double(l.ReductionSize())) * x_rms * 90 / std::sqrt(3.0);
  // 2. Output scale: the median channel's accumulator spread lands at +-40 quantised units.
  l.output_scale = static_cast<float>(s.input_scale * 0.004 * acc_rms / 40);
  for (uint32_t n = 0; n < l.out_c; ++n) {
    NPU_ASSIGN_OR_RETURN(
        const compiler::QuantizedMultiplier q,
        compiler::QuantizeMultiplier(s.input_scale * weight_scale[n] / l.output_scale));
    l.multiplier[n] = q.multiplier;
    l.shift[n] = q.shift;
    l.bias[n] = static_cast<int32_t>(std::lround((draw.Unit() - 0.5) * acc_rms));
  }
  compiler::ClampRange clamp = compiler::NoActivationClamp();
  if (s.activation == Activation::kRelu) clamp = compiler::ReluClamp(s.output_zero_point);
  if (s.activation == Activation::kRelu6) {
    clamp = compiler::Relu6Clamp(l.output_scale, s.output_zero_point);
  }
  l.clamp_min = clamp.min;
  l.clamp_max = clamp.max;
  return l;
}

std::vector<int8_t> MakeInputTensor(uint64_t bytes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int8_t> input(bytes);
  for (int8_t& v : input) v = static_cast<int8_t>(static_cast<int32_t>(rng() >> 24) - 128);
  return input;
}

void SetSamePadding(SyntheticConvSpec& s) {
  const uint32_t total_h = (s.kernel_h - 1) * s.dilation_h,
                 total_w = (s.kernel_w - 1) * s.dilation_w;
  s.pad_top = total_h / 2, s.pad_bottom = total_h - total_h / 2;
  s.pad_left = total_w / 2, s.pad_right = total_w - total_w / 2;
}

}  // namespace npu::workloads
