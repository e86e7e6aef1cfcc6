// CheckNormLayer and the layer's parameter records.
#include "compiler/layer/norm_layer.h"

#include <fmt/format.h>

#include "hw/spec/isa.h"

namespace npu::compiler {
namespace {

constexpr uint32_t kMaxChannels = 65535;  // LNORM's 16-bit channels field

bool IsInt8(int64_t v) { return v >= INT8_MIN && v <= INT8_MAX; }

Status CheckFields(const NormLayer& l) {
  if (l.h == 0 || l.w == 0 || l.c == 0) {
    return InvalidArgument(
        fmt::format("shape {}x{}x{}: every dimension must be at least 1", l.h, l.w, l.c));
  }
  if (l.c > kMaxChannels) {
    return InvalidArgument(fmt::format("{} channels; LNORM normalises at most {}", l.c,
                                       kMaxChannels));
  }
  if (l.channels.size() != l.c) {
    return InvalidArgument(fmt::format("{} channel records for {} channels", l.channels.size(),
                                       l.c));
  }
  for (size_t k = 0; k < l.channels.size(); ++k) {
    const spec::LayerNormChannel& ch = l.channels[k];
    if (!spec::ValidLnormRecord(ch)) {
      return InvalidArgument(fmt::format("channel {}: gamma {} or shift {} outside int8 and 1..62",
                                         k, ch.gamma, ch.shift));
    }
  }
  if (!IsInt8(l.in_zero_point) || !IsInt8(l.out_zero_point) || !IsInt8(l.clamp_min) ||
      !IsInt8(l.clamp_max) || l.clamp_min > l.clamp_max) {
    return InvalidArgument(fmt::format("zero points {}, {} or clamp [{}, {}] outside int8",
                                       l.in_zero_point, l.out_zero_point, l.clamp_min,
                                       l.clamp_max));
  }
  return Status::Ok();
}

}  // namespace

uint64_t NormLayer::ParamBytes() const { return uint64_t{c} * spec::kLnormParamBytes; }

std::vector<uint8_t> NormLayer::ParamRecords() const {
  std::vector<uint8_t> block(ParamBytes());
  for (uint32_t k = 0; k < channels.size(); ++k) spec::WriteLnormParams(block, k, channels[k]);
  return block;
}

Status CheckNormLayer(const NormLayer& l) {
  return CheckFields(l).WithContext(fmt::format("layer '{}'", l.DisplayName()));
}

}  // namespace npu::compiler
