// CheckPoolLayer: shapes first, then what one POOL instruction can encode, then quantisation.
#include "compiler/layer/pool_layer.h"

#include <fmt/format.h>

#include <utility>

#include "compiler/layer/int8_fields.h"
#include "hw/spec/arith.h"

namespace npu::compiler {
namespace {

Status CheckShape(const PoolLayer& l) {
  const std::pair<const char*, uint32_t> dims[] = {
      {"in_h", l.in_h},         {"in_w", l.in_w},         {"channels", l.channels},
      {"kernel_h", l.kernel_h}, {"kernel_w", l.kernel_w}, {"stride_h", l.stride_h},
      {"stride_w", l.stride_w}, {"out_h", l.out_h},       {"out_w", l.out_w}};
  for (const auto& [field, value] : dims) {
    if (value == 0) return InvalidArgument(fmt::format("{} = 0: must be at least 1", field));
  }
  // Every window must touch the input, or POOL would see no tap (the reference divides by 0).
  const int64_t last_row = int64_t{l.out_h - 1} * l.stride_h - l.pad_top;
  const int64_t last_col = int64_t{l.out_w - 1} * l.stride_w - l.pad_left;
  if (last_row >= l.in_h || last_col >= l.in_w || l.pad_top >= l.kernel_h ||
      l.pad_left >= l.kernel_w) {
    return InvalidArgument(fmt::format(
        "output {}x{} with kernel {}x{}, stride {}x{}, padding {},{} has windows that miss the "
        "{}x{} input entirely",
        l.out_h, l.out_w, l.kernel_h, l.kernel_w, l.stride_h, l.stride_w, l.pad_top, l.pad_left,
        l.in_h, l.in_w));
  }
  return Status::Ok();
}

Status CheckEncodable(const PoolLayer& l) {
  const std::tuple<const char*, uint32_t, uint32_t> limits[] = {
      {"kernel_h", l.kernel_h, kMaxPoolKernel}, {"kernel_w", l.kernel_w, kMaxPoolKernel},
      {"stride_h", l.stride_h, kMaxPoolStride}, {"stride_w", l.stride_w, kMaxPoolStride},
      {"pad_top", l.pad_top, kMaxPoolPad},      {"pad_left", l.pad_left, kMaxPoolPad},
      {"channels", l.channels, 65535}};
  for (const auto& [field, value, limit] : limits) {
    if (value > limit) {
      return Unimplemented(fmt::format("{} = {}: POOL encodes at most {}", field, value, limit));
    }
  }
  return Status::Ok();
}

Status CheckQuantisation(const PoolLayer& l) {
  if (l.average() && (l.shift < spec::kMinShift || l.shift > spec::kMaxShift)) {
    return InvalidArgument(fmt::format("shift = {}: must be between {} and {}", l.shift,
                                       spec::kMinShift, spec::kMaxShift));
  }
  if (l.average() && l.multiplier <= 0) {
    return InvalidArgument(fmt::format("multiplier = {}: must be positive", l.multiplier));
  }
  return CheckInt8Fields(l.input_zero_point, l.output_zero_point, l.clamp_min, l.clamp_max);
}

}  // namespace

const char* PoolLayer::OpName() const {
  switch (kind) {
    case PoolKind::kMax:
      return "max_pool";
    case PoolKind::kAverage:
      return "average_pool";
    case PoolKind::kGlobalAverage:
      return "global_average_pool";
    case PoolKind::kSum:
      return "pool_sum";
    case PoolKind::kMeanOfSums:
      return "pool_mean";
  }
  return "pool";
}

Status CheckPoolLayer(const PoolLayer& layer) {
  Status status = CheckShape(layer);
  if (status.ok()) status = CheckEncodable(layer);
  if (status.ok()) status = CheckQuantisation(layer);
  return status.WithContext(fmt::format("layer '{}'", layer.DisplayName()));
}

}  // namespace npu::compiler
