// Deterministic synthetic quantised layers: weights, biases, scales and inputs drawn from a
// seeded std::mt19937 and mapped to values by hand (std distributions differ between standard
// libraries), with realistic per-channel scales. The single-layer workloads and the compiler's
// tests build their layers here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "hw/spec/status.h"

namespace npu::workloads {

enum class Activation { kNone, kRelu, kRelu6 };

struct SyntheticConvSpec {
  std::string name = "conv";
  bool fully_connected = false;
  uint32_t in_h = 1, in_w = 1, in_c = 1, out_c = 1;
  uint32_t kernel_h = 1, kernel_w = 1;
  uint32_t stride_h = 1, stride_w = 1;
  uint32_t dilation_h = 1, dilation_w = 1;
  uint32_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  Activation activation = Activation::kNone;
  float input_scale = 0.05f;
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  uint32_t seed = 1;
};

// The layer with generated weights (per-channel amplitude, symmetric), bias in accumulator
// scale, and per-channel multipliers from float scales (QuantizeMultiplier). The output scale is
// chosen so the outputs spread over the int8 range. Fails if the shape is malformed.
StatusOr<compiler::ConvLayer> MakeSyntheticConv(const SyntheticConvSpec& spec);

// `bytes` int8 values, uniform over the whole int8 range.
std::vector<int8_t> MakeInputTensor(uint64_t bytes, uint32_t seed);

// Same padding for a stride-1 kernel ("SAME"): total kernel extent - 1, split low/high.
void SetSamePadding(SyntheticConvSpec& spec);

}  // namespace npu::workloads
