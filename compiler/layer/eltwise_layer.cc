// CheckEltwiseLayer: ranges of the fields, then what the op and the broadcast require.
#include "compiler/layer/eltwise_layer.h"

#include <fmt/format.h>

#include <tuple>

#include "hw/spec/arith.h"

namespace npu::compiler {
namespace {

Status CheckRanges(const EltwiseLayer& l) {
  const std::tuple<const char*, int64_t, int64_t, int64_t> fields[] = {
      {"h", l.h, 1, UINT32_MAX},
      {"w", l.w, 1, UINT32_MAX},
      {"c", l.c, 1, UINT32_MAX},
      {"a_zero_point", l.a_zero_point, -128, 127},
      {"b_zero_point", l.b_zero_point, -128, 127},
      {"output_zero_point", l.output_zero_point, -128, 127},
      {"b_multiplier", l.b_multiplier, -32768, 32767},
      {"shift", l.shift, spec::kMinShift, spec::kMaxShift},
      {"clamp_min", l.clamp_min, -128, 127},
      {"clamp_max", l.clamp_max, -128, 127}};
  for (const auto& [field, value, lo, hi] : fields) {
    if (value < lo || value > hi) {
      return InvalidArgument(
          fmt::format("{} = {}: must be between {} and {}", field, value, lo, hi));
    }
  }
  if (l.clamp_min > l.clamp_max) {
    return InvalidArgument(
        fmt::format("clamp_min = {} is above clamp_max = {}", l.clamp_min, l.clamp_max));
  }
  return Status::Ok();
}

Status CheckOperands(const EltwiseLayer& l) {
  if (l.op == spec::EltwiseOp::kMul && l.b_multiplier != 0) {
    return InvalidArgument(
        fmt::format("mul scales the product by a_multiplier alone; b_multiplier = {} must be 0",
                    l.b_multiplier));
  }
  const bool per_channel_or_pixel =
      l.broadcast == spec::Broadcast::kChannel || l.broadcast == spec::Broadcast::kPixel;
  if (per_channel_or_pixel && l.c > 65535) {
    return Unimplemented(fmt::format(
        "c = {}: ELTWISE broadcasts per channel or pixel over at most 65535 channels", l.c));
  }
  if (l.b_is_constant() && l.b_constant.size() != l.BElements() * l.ElementBytes()) {
    return InvalidArgument(fmt::format("the constant b has {} bytes; its broadcast needs {}",
                                       l.b_constant.size(), l.BElements() * l.ElementBytes()));
  }
  return Status::Ok();
}

}  // namespace

uint64_t EltwiseLayer::BElements() const {
  switch (broadcast) {
    case spec::Broadcast::kNone:
      return Elements();
    case spec::Broadcast::kChannel:
      return c;
    case spec::Broadcast::kPixel:
      return uint64_t{h} * w;
    case spec::Broadcast::kScalar:
      return 1;
  }
  return 0;
}

const char* EltwiseLayer::OpName() const {
  switch (op) {
    case spec::EltwiseOp::kAdd:
      return "add";
    case spec::EltwiseOp::kMul:
      return "mul";
    case spec::EltwiseOp::kMax:
      return "max";
    case spec::EltwiseOp::kMin:
      return "min";
  }
  return "eltwise";
}

Status CheckEltwiseLayer(const EltwiseLayer& layer) {
  Status status = CheckRanges(layer);
  if (status.ok() && layer.fp16_relu && !layer.fp16) status = InvalidArgument("fp16_relu without fp16");
  if (status.ok() && layer.int8_out && !layer.fp16) status = InvalidArgument("int8_out without fp16");
  if (status.ok()) status = CheckOperands(layer);
  return status.WithContext(fmt::format("layer '{}'", layer.DisplayName()));
}

}  // namespace npu::compiler
