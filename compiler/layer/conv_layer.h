// One quantised 2-D convolution (or fully-connected) layer: the unit the single-layer compiler
// compiles and the integer reference evaluates. TFLite/TOSA int8 conventions: NHWC activations
// (batch 1) with a zero point, symmetric per-output-channel weights (zero point 0), and an int32
// bias already in accumulator scale.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "hw/spec/arith.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct ConvLayer {
  std::string name;
  bool fully_connected = false;  // only changes the op name in reports
  // Depthwise (group == in_c == out_c): output channel n sees only input channel n; weights are
  // [out_c][kernel_h][kernel_w].
  bool depthwise = false;
  // Weights that are an activation, not constants (a tile of a matrix product of two
  // activations, matmul_layer.h): `weights` is empty and each weight tile is LOADed from the
  // activation b, in_c x out_c (K x N) row-major, which CONV reads as it is (weights_kn), or with
  // weights_nk out_c x in_c (b transposed: CONV's usual layout). CONV subtracts both zero points
  // itself (input_zero_point, weight_zero_point), so nothing is folded into the bias and the
  // reduction is bounded by kMaxActivationReduction. 1x1 kernels, no padding.
  bool activation_weights = false;
  bool weights_nk = false;
  int32_t weight_zero_point = 0;  // 0 unless activation_weights
  // W4A8: every weight is in [-8, 7] and the weight tiles go to DRAM and SRAM as int4, each
  // tile row packed two per byte (CONV's weights_int4, hw/spec/int4.h).
  bool weights_int4 = false;
  // FP16 (docs/fp16-semantics.md): FP16 activations and weights (`weights_fp16`, the bits, in
  // the layout of `weights`, which stays empty), FP32 bias (`bias_fp32`; `bias`, `multiplier`
  // and `shift` empty), clamps as FP16 bit patterns; no zero points, scales or table. Every
  // size below counts 2 bytes an element. The tiler never splits an FP16 reduction over
  // several CONVs (each would round its sum into the accumulator).
  bool fp16 = false;
  std::vector<uint16_t> weights_fp16;
  std::vector<float> bias_fp32;
  uint16_t fp16_clamp_min = 0xFC00, fp16_clamp_max = 0x7C00;  // -inf, +inf
  // Independent convolutions computed alike, one after the other with one tiling and one set of
  // buffers (a matrix product's batch indices: attention's heads): each has its own input,
  // weights (activation weights) and output, whose places the emitter is given. The sizes below
  // are one batch's; Macs() counts them all.
  uint32_t batches = 1;
  // Groups of a grouped convolution computed side by side by one CONV (its `groups` field,
  // compiler/network/group_packing.h): in_c and out_c are this many groups of channels, output
  // channel n sees only the in_c / groups input channels of group n / (out_c / groups), weights
  // [out_c][kernel_h][kernel_w][in_c / groups]. Not with depthwise or activation weights.
  uint32_t groups = 1;

  uint32_t in_h = 1, in_w = 1, in_c = 1;
  uint32_t out_c = 1;
  uint32_t kernel_h = 1, kernel_w = 1;
  uint32_t stride_h = 1, stride_w = 1;
  uint32_t dilation_h = 1, dilation_w = 1;
  uint32_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;

  // [out_c][kernel_h][kernel_w][WeightChannels()]; empty with activation_weights.
  std::vector<int8_t> weights;
  std::vector<int32_t> bias;        // [out_c]: real bias / (input_scale * weight_scale[n])
  std::vector<int32_t> multiplier;  // [out_c]: with shift, input_scale * weight_scale[n] /
  std::vector<int32_t> shift;       // [out_c]   output_scale (see quant/quant_math.h)

  float input_scale = 1.0f;
  int32_t input_zero_point = 0;
  float output_scale = 1.0f;
  int32_t output_zero_point = 0;
  int32_t clamp_min = -128;  // ReLU: output zero point; ReLU6: also quantised 6.0 as max
  int32_t clamp_max = 127;
  // Empty, or spec::kLutEntries entries every output value v then goes through (table[v + 128],
  // ACT's use_table): a fused Sigmoid, SiLU, HardSwish, GELU... (lut_table.h). The output
  // quantisation above is then the table's input; the table maps it to the layer's real output.
  std::vector<int8_t> table;

  // Output size; 0 if the (padded) input is smaller than the dilated kernel.
  uint32_t OutH() const;
  uint32_t OutW() const;
  // Dilated kernel extent: the input rows/cols one output position spans.
  uint32_t KernelExtentH() const { return (kernel_h - 1) * dilation_h + 1; }
  uint32_t KernelExtentW() const { return (kernel_w - 1) * dilation_w + 1; }
  // Taps summed per output value: kernel_h * kernel_w * WeightChannels().
  uint64_t ReductionSize() const { return uint64_t{kernel_h} * kernel_w * WeightChannels(); }
  // Input channels one weight row covers: in_c, 1 if depthwise, a group's with groups.
  uint32_t WeightChannels() const { return depthwise ? 1 : in_c / std::max(1u, groups); }
  // Output channels of a group (grouped layers: tiles of output channels hold whole groups).
  uint32_t GroupOutputs() const { return out_c / std::max(1u, groups); }
  uint64_t ElementBytes() const { return fp16 ? 2 : 1; }  // of activations and weights
  uint64_t WeightValues() const { return uint64_t{out_c} * ReductionSize(); }
  uint64_t WeightBytes() const { return WeightValues() * ElementBytes(); }
  uint64_t Macs() const {
    return uint64_t{batches} * OutH() * OutW() * out_c * ReductionSize();
  }
  uint64_t InputBytes() const { return uint64_t{in_h} * in_w * in_c * ElementBytes(); }
  uint64_t OutputBytes() const { return uint64_t{OutH()} * OutW() * out_c * ElementBytes(); }
  const char* OpName() const {
    return activation_weights ? "matmul"
           : fully_connected  ? "fully_connected"
           : depthwise        ? "depthwise_conv2d"
                              : "conv2d";
  }
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// The largest kernel, stride, dilation and padding handled (CONV's 12-bit extents bound what a
// window can span; larger values are decomposed below this: tiling/tile_grid.h).
inline constexpr uint32_t kMaxWindowField = 4095;

// The largest reduction whose int32 accumulator cannot overflow (hw/spec/arith.h).
inline constexpr uint64_t kMaxReduction = spec::kMaxReduction;

// With activation weights both operands of a product range over 255 values around their zero
// points: 255 x 255 x 33025 stays below 2^31.
inline constexpr uint64_t kMaxActivationReduction = 33025;

// Every rule the compiler and the reference rely on; the error names the layer and the field.
Status CheckLayer(const ConvLayer& layer);

// A fully-connected layer is the 1x1 convolution of a 1x1 x in_features input. Weights are
// [out_features][in_features]. The caller fills in the quantisation fields.
ConvLayer MakeFullyConnected(std::string name, uint32_t in_features, uint32_t out_features,
                             std::vector<int8_t> weights, std::vector<int32_t> bias);

}  // namespace npu::compiler
