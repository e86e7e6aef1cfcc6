// CheckLayer: one rule per field, in the order a reader of the struct meets them.
#include "compiler/layer/conv_layer.h"

#include <algorithm>

#include "hw/spec/int4.h"

#include <fmt/format.h>

#include <cmath>
#include <span>
#include <tuple>
#include <utility>

#include "compiler/layer/int8_fields.h"
#include "compiler/layer/lut_layer.h"
#include "hw/spec/arith.h"

namespace npu::compiler {
namespace {

uint32_t OutExtent(uint32_t in, uint32_t pad_before, uint32_t pad_after, uint32_t extent,
                   uint32_t stride) {
  const uint64_t padded = uint64_t{in} + pad_before + pad_after;
  if (stride == 0 || padded < extent) return 0;
  return static_cast<uint32_t>((padded - extent) / stride + 1);
}

// Weights from an activation: read as CONV's weights_kn, which only 1x1 kernels have, and a
// reduction short enough for 9-bit x 9-bit products.
Status CheckActivationWeights(const ConvLayer& l) {
  if (l.depthwise || l.kernel_h != 1 || l.kernel_w != 1 || l.pad_top || l.pad_left ||
      l.pad_bottom || l.pad_right) {
    return InvalidArgument(
        "weights from an activation need a 1x1 kernel without padding, not depthwise");
  }
  if (l.ReductionSize() > kMaxActivationReduction) {
    return Unimplemented(fmt::format(
        "in_c = {}: with both operands' zero points subtracted, above {} the int32 accumulator "
        "could overflow",
        l.in_c, kMaxActivationReduction));
  }
  return Status::Ok();
}

// Shapes: every dimension positive. Kernels, strides and dilations beyond CONV's 4-bit fields
// are decomposed by the tiler (tile_grid.h), up to what its 12-bit extents allow.
Status CheckShape(const ConvLayer& l) {
  const std::pair<const char*, uint32_t> dims[] = {{"batches", l.batches},
                                                   {"in_h", l.in_h},
                                                   {"in_w", l.in_w},
                                                   {"in_c", l.in_c},
                                                   {"out_c", l.out_c},
                                                   {"kernel_h", l.kernel_h},
                                                   {"kernel_w", l.kernel_w},
                                                   {"stride_h", l.stride_h},
                                                   {"stride_w", l.stride_w},
                                                   {"dilation_h", l.dilation_h},
                                                   {"dilation_w", l.dilation_w}};
  for (const auto& [field, value] : dims) {
    if (value == 0) return InvalidArgument(fmt::format("{} = 0: must be at least 1", field));
  }
  for (const auto& [field, value] : std::span(dims).subspan(5)) {
    if (value > kMaxWindowField) {
      return Unimplemented(
          fmt::format("{} = {}: at most {} is supported", field, value, kMaxWindowField));
    }
  }
  if (l.depthwise && l.in_c != l.out_c) {
    return InvalidArgument(fmt::format("depthwise with in_c = {} != out_c = {}", l.in_c, l.out_c));
  }
  if (l.groups == 0 || (l.groups > 1 && (l.in_c % l.groups || l.out_c % l.groups))) {
    return InvalidArgument(fmt::format("groups = {} must divide in_c = {} and out_c = {}",
                                       l.groups, l.in_c, l.out_c));
  }
  if (l.groups > 1 && (l.depthwise || l.activation_weights)) {
    return InvalidArgument(
        fmt::format("groups = {}: not with depthwise or activation weights", l.groups));
  }
  if (l.groups > 65535) {
    return Unimplemented(fmt::format("groups = {}: the ISA encodes at most 65535", l.groups));
  }
  if (l.out_c > 65535) {
    return Unimplemented(fmt::format("out_c = {}: the ISA encodes at most 65535", l.out_c));
  }
  if (l.ReductionSize() > kMaxReduction) {
    return Unimplemented(fmt::format(
        "kernel_h x kernel_w x in_c = {}: above {} the int32 accumulator could overflow",
        l.ReductionSize(), kMaxReduction));
  }
  if (l.weights_nk && !l.activation_weights) {
    return InvalidArgument("weights_nk: only weights from an activation have that layout");
  }
  return l.activation_weights ? CheckActivationWeights(l) : Status::Ok();
}

// Padding: the padded input must hold one kernel window. Windows that see only padding are
// fine (they give the bias alone); CONV's 8-bit pad field bounds what one tile may need, which
// the tiler checks.
Status CheckPadding(const ConvLayer& l) {
  if (l.OutH() == 0 || l.OutW() == 0) {
    return InvalidArgument(
        fmt::format("kernel extent {}x{} (dilation included) is larger than the padded input {}x{}",
                    l.KernelExtentH(), l.KernelExtentW(), l.in_h + l.pad_top + l.pad_bottom,
                    l.in_w + l.pad_left + l.pad_right));
  }
  const std::pair<const char*, uint32_t> pads[] = {{"pad_top", l.pad_top},
                                                   {"pad_bottom", l.pad_bottom},
                                                   {"pad_left", l.pad_left},
                                                   {"pad_right", l.pad_right}};
  for (const auto& [field, pad] : pads) {
    if (pad > kMaxWindowField) {
      return Unimplemented(
          fmt::format("{} = {}: at most {} is supported", field, pad, kMaxWindowField));
    }
  }
  return Status::Ok();
}

Status CheckFp16(const ConvLayer& l) {
  if (l.activation_weights || l.weights_int4 || !l.table.empty() || !l.weights.empty() ||
      !l.bias.empty()) {
    return InvalidArgument(
        "fp16: no activation weights, int4 weights, table, int8 weights or int32 bias");
  }
  if (l.weights_fp16.size() != l.WeightValues()) {
    return InvalidArgument(fmt::format("fp16 weights has {} values, expected {}",
                                       l.weights_fp16.size(), l.WeightValues()));
  }
  if (l.bias_fp32.size() != l.out_c) {
    return InvalidArgument(
        fmt::format("fp16 bias has {} values, expected out_c = {}", l.bias_fp32.size(), l.out_c));
  }
  return Status::Ok();
}

Status CheckSizes(const ConvLayer& l) {
  const uint64_t want_weights = l.activation_weights ? 0 : l.WeightValues();
  if (l.activation_weights && !l.weights.empty()) {
    return InvalidArgument("weights from an activation: the constant weights must be empty");
  }
  if (l.weights.size() != want_weights) {
    return InvalidArgument(
        fmt::format("weights has {} values, expected out_c x kernel_h x kernel_w x {} = {}",
                    l.weights.size(),
                    l.depthwise ? "1" : l.groups > 1 ? "in_c / groups" : "in_c", want_weights));
  }
  if (l.weights_int4) {
    if (l.activation_weights) return InvalidArgument("int4 weights from an activation");
    const auto bad = std::find_if(l.weights.begin(), l.weights.end(), [](int8_t w) {
      return w < spec::kInt4Min || w > spec::kInt4Max;
    });
    if (bad != l.weights.end()) {
      return InvalidArgument(fmt::format("int4 weights: weight {} is {}, outside [-8, 7]",
                                         bad - l.weights.begin(), int{*bad}));
    }
  }
  const std::pair<const char*, size_t> per_channel[] = {
      {"bias", l.bias.size()}, {"multiplier", l.multiplier.size()}, {"shift", l.shift.size()}};
  for (const auto& [field, size] : per_channel) {
    if (size != l.out_c) {
      return InvalidArgument(
          fmt::format("{} has {} values, expected out_c = {}", field, size, l.out_c));
    }
  }
  return Status::Ok();
}

Status CheckQuantisation(const ConvLayer& l) {
  for (uint32_t n = 0; n < l.out_c; ++n) {
    if (l.shift[n] < spec::kMinShift || l.shift[n] > spec::kMaxShift) {
      return InvalidArgument(fmt::format("shift[{}] = {}: must be between {} and {}", n, l.shift[n],
                                         spec::kMinShift, spec::kMaxShift));
    }
    if (l.multiplier[n] <= 0) {
      return InvalidArgument(
          fmt::format("multiplier[{}] = {}: must be positive", n, l.multiplier[n]));
    }
  }
  const std::pair<const char*, float> scales[] = {{"input_scale", l.input_scale},
                                                  {"output_scale", l.output_scale}};
  for (const auto& [field, scale] : scales) {
    if (!(scale > 0.0f) || !std::isfinite(scale)) {
      return InvalidArgument(fmt::format("{} = {}: must be positive and finite", field, scale));
    }
  }
  NPU_TRY(CheckInt8Fields(l.input_zero_point, l.output_zero_point, l.clamp_min, l.clamp_max));
  if (l.weight_zero_point < -128 || l.weight_zero_point > 127 ||
      (l.weight_zero_point != 0 && !l.activation_weights)) {
    return InvalidArgument(fmt::format(
        "weight_zero_point = {}: must be 0 for constant weights (symmetric), int8 for activation "
        "weights",
        l.weight_zero_point));
  }
  return CheckOptionalTable(l.table);
}

}  // namespace

uint32_t ConvLayer::OutH() const {
  return OutExtent(in_h, pad_top, pad_bottom, KernelExtentH(), stride_h);
}
uint32_t ConvLayer::OutW() const {
  return OutExtent(in_w, pad_left, pad_right, KernelExtentW(), stride_w);
}

Status CheckLayer(const ConvLayer& layer) {
  Status status = CheckShape(layer);
  if (status.ok()) status = CheckPadding(layer);
  if (status.ok() && layer.fp16) status = CheckFp16(layer);
  if (status.ok() && !layer.fp16) status = CheckSizes(layer);
  if (status.ok() && !layer.fp16) status = CheckQuantisation(layer);
  return status.WithContext(fmt::format("layer '{}'", layer.DisplayName()));
}

ConvLayer MakeFullyConnected(std::string name, uint32_t in_features, uint32_t out_features,
                             std::vector<int8_t> weights, std::vector<int32_t> bias) {
  ConvLayer layer;
  layer.name = std::move(name);
  layer.fully_connected = true;
  layer.in_c = in_features;
  layer.out_c = out_features;
  layer.weights = std::move(weights);
  layer.bias = std::move(bias);
  return layer;
}

}  // namespace npu::compiler
