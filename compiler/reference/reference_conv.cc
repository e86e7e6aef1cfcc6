// The integer reference convolution.
#include "compiler/reference/reference_conv.h"

#include <fmt/format.h>

#include "hw/spec/arith.h"

namespace npu::compiler {
namespace {

// The exact sum for one output position; CheckLayer's reduction bound keeps it inside int32.
int64_t WindowSum(const ConvLayer& l, std::span<const int8_t> input, uint32_t oh, uint32_t ow,
                  uint32_t n) {
  int64_t sum = 0;
  for (uint32_t kh = 0; kh < l.kernel_h; ++kh) {
    const int64_t y = int64_t{oh} * l.stride_h + int64_t{kh} * l.dilation_h - l.pad_top;
    if (y < 0 || y >= l.in_h) continue;  // padding contributes (zp - zp) * w = 0
    for (uint32_t kw = 0; kw < l.kernel_w; ++kw) {
      const int64_t x = int64_t{ow} * l.stride_w + int64_t{kw} * l.dilation_w - l.pad_left;
      if (x < 0 || x >= l.in_w) continue;
      const int8_t* in = input.data() + (uint64_t(y) * l.in_w + uint64_t(x)) * l.in_c;
      const uint64_t tap = (uint64_t{n} * l.kernel_h + kh) * l.kernel_w + kw;
      if (l.depthwise) {  // channel n alone, one weight per tap
        sum += (int64_t{in[n]} - l.input_zero_point) * int64_t{l.weights[tap]};
        continue;
      }
      // Output channel n's group's input channels (all of them when not grouped).
      const uint32_t cg = l.WeightChannels(), first = n / (l.out_c / l.groups) * cg;
      const int8_t* w = l.weights.data() + tap * cg;
      for (uint32_t c = 0; c < cg; ++c) {
        sum += (int64_t{in[first + c]} - l.input_zero_point) * int64_t{w[c]};
      }
    }
  }
  return sum;
}

}  // namespace

StatusOr<std::vector<int8_t>> ReferenceConv(const ConvLayer& layer, std::span<const int8_t> input) {
  NPU_TRY(CheckLayer(layer));
  if (input.size() != layer.InputBytes()) {
    return InvalidArgument(fmt::format("layer '{}': input has {} bytes, expected {}x{}x{} = {}",
                                       layer.DisplayName(), input.size(), layer.in_h, layer.in_w,
                                       layer.in_c, layer.InputBytes()));
  }
  const uint32_t out_h = layer.OutH(), out_w = layer.OutW();
  std::vector<int8_t> out(layer.OutputBytes());
  for (uint32_t oh = 0; oh < out_h; ++oh) {
    for (uint32_t ow = 0; ow < out_w; ++ow) {
      for (uint32_t n = 0; n < layer.out_c; ++n) {
        const int64_t sum = WindowSum(layer, input, oh, ow, n);
        out[(uint64_t{oh} * out_w + ow) * layer.out_c + n] = spec::Requantize(
            static_cast<int32_t>(sum), layer.bias[n], layer.multiplier[n], layer.shift[n],
            layer.output_zero_point, layer.clamp_min, layer.clamp_max);
      }
    }
  }
  if (!layer.table.empty()) {
    for (int8_t& v : out) v = layer.table[int{v} + 128];
  }
  return out;
}

}  // namespace npu::compiler
