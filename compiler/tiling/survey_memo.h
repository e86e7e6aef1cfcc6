// SurveyTilings, remembered for one compile: a network's repeated layers (resnet18's identical
// 3x3 convolutions, mobilenet_v2's repeated blocks) are surveyed once per context, not once each;
// on small arrays the survey is most of a compile. A survey depends on a layer's shape and kinds,
// never on its data: weights, bias, scales, zero points and clamps change the values computed,
// never the instruction stream or its timing (the rule timing-only runs rest on). So the key holds
// the shape, the kinds and the sizes of the data, not the values; the layer's name shows only in
// errors, which are never remembered.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/tiling_search.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

class TilingSurveyMemo {
 public:
  explicit TilingSurveyMemo(const spec::NpuConfig& config) : config_(config) {}
  // SurveyTilings(config, layer, context), from memory when an equal layer was surveyed in an
  // equal context.
  StatusOr<TilingOutlook> Survey(const ConvLayer& layer, const TilingContext& context);

 private:
  const spec::NpuConfig& config_;
  std::map<std::vector<int64_t>, TilingOutlook> seen_;
};

}  // namespace npu::compiler
