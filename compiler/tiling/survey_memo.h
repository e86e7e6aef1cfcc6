// SurveyTilings and ChooseTiling, remembered for the process: a network's repeated layers
// (resnet18's identical 3x3 convolutions, mobilenet_v2's repeated blocks, a row-strip group's
// strips) are searched once per context, not once each, and so are the layers every kAuto
// variant of a compile tiles again (compile_model.cc); on small SRAMs and arrays the searches are
// most of a compile. A search depends on a layer's shape and kinds, never on its data: weights,
// bias, scales and clamps change the values computed, never the instruction stream or its timing
// (the rule timing-only runs rest on). So the key holds the config, the shape, the kinds and the
// sizes of the data, not the values; the layer's name shows only in errors, which are never
// remembered.
#pragma once

#include <string>

#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/tiling_search.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

class TilingSurveyMemo {
 public:
  explicit TilingSurveyMemo(const spec::NpuConfig& config);
  // SurveyTilings(config, layer, context), from memory when an equal layer was surveyed in an
  // equal context on an equal config.
  StatusOr<TilingOutlook> Survey(const ConvLayer& layer, const TilingContext& context);
  // ChooseTiling(config, layer, context), likewise (a context holding constants, `held`, is
  // searched every time).
  StatusOr<TilingChoice> Choose(const ConvLayer& layer, const TilingContext& context);

 private:
  const spec::NpuConfig& config_;
  const std::string config_bytes_;
};

}  // namespace npu::compiler
