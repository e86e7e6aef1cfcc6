// The quantiser's arithmetic: real ranges and scales in, the integers of docs/quantized-ir.md out.
// Rounding (docs/quantization.md): tensor values (weights, biases) round half to even, as ONNX
// QuantizeLinear; scalar multipliers round half away from zero (compiler::QuantizeMultiplier).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "compiler/ir/types.h"
#include "compiler/quant/quant_math.h"
#include "compiler/quantize/observer.h"
#include "hw/spec/status.h"

namespace npu::compiler::quantize {

// Asymmetric int8 over `range` widened to contain 0 (so that 0, the padding, is exact):
// scale = (hi - lo) / 255, zero_point = clamp(round_half_even(-128 - lo / scale), -128, 127).
// A range narrower than 1e-6 is widened to that (an all-zero tensor still gets a valid scale).
ir::QuantParams ActivationParams(ValueRange range);

// Weights as rows of `k` values, one row per output channel, already in the target layout.
struct QuantizedWeights {
  std::vector<int8_t> values;  // round_half_even(w / scale[o]), saturated to [-128, 127]
  std::vector<float> scales;   // one per row
};
// Symmetric per-row quantisation to `bits` (8, or 4 for W4A8: values in [-8, 7]). `given` (one
// scale per row, from a QDQ model) is used as is; otherwise scale = max|w| / 127 (4 bits: / 7)
// per row, an all-zero row taking the largest row's scale and no row's scale being below 2^-16
// of the largest (so every requantisation ratio stays representable).
QuantizedWeights QuantizeWeightRows(std::span<const float> rows, int64_t k,
                                    const std::vector<float>* given = nullptr, int bits = 8);

// bias_q[o] = round_half_even(bias[o] / (input_scale * weight_scales[o])), saturated to int32
// (each saturation counted in `saturated`). An empty `bias` gives zeros.
std::vector<int32_t> QuantizeBias(std::span<const float> bias, float input_scale,
                                  std::span<const float> weight_scales, int64_t& saturated);

// Narrows each bias so that bias[o] - input_zero_point * sum(row o of `weights`) fits int32: the
// folded bias the NPU adds (compiler/codegen/constants.h, FoldedBias). Only a bias within that
// sum of the int32 limits moves (an input range so narrow that the bias saturated, as an all-zero
// calibration of a squeeze-excitation branch gives); each move is counted in `saturated`.
void FitFoldedBias(std::vector<int32_t>& bias, int32_t input_zero_point,
                   std::span<const int8_t> weights, int64_t k, int64_t& saturated);

// Per output channel, input_scale * weight_scales[o] / output_scale as QuantizeMultiplier's pair.
struct ChannelMultipliers {
  std::vector<int64_t> multiplier, shift;
};
StatusOr<ChannelMultipliers> RequantMultipliers(float input_scale,
                                                std::span<const float> weight_scales,
                                                float output_scale);

// Add: Ma = round(s_a / s_y * 2^shift), Mb likewise, with the largest shift in 1..62 that keeps
// both in int16 (docs/quantized-ir.md).
struct AddMultipliers {
  int64_t a = 0, b = 0, shift = 0;
};
StatusOr<AddMultipliers> ComputeAddMultipliers(float scale_a, float scale_b, float scale_y);

// The output clamp of an activation ("none", "relu", "relu6") in the output's quantisation.
ClampRange ActivationClamp(std::string_view activation, const ir::QuantParams& out);

}  // namespace npu::compiler::quantize
