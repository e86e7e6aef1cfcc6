// TilingSurveyMemo.
#include "compiler/tiling/survey_memo.h"

#include <optional>
#include <vector>

#include "compiler/tiling/remembered.h"

namespace npu::compiler {
namespace {

// The config's bytes, then everything of `l` and `c` a search can depend on (survey_memo.h says
// why not the data).
std::string Key(const std::string& config_bytes, const ConvLayer& l, const TilingContext& c) {
  const std::vector<int64_t> shape = {l.depthwise,
                                      l.groups,
                                      l.activation_weights,
                                      l.weights_nk,
                                      l.weight_zero_point != 0,
                                      l.weights_int4,
                                      l.batches,
                                      l.in_h,
                                      l.in_w,
                                      l.in_c,
                                      l.out_c,
                                      l.kernel_h,
                                      l.kernel_w,
                                      l.stride_h,
                                      l.stride_w,
                                      l.dilation_h,
                                      l.dilation_w,
                                      l.pad_top,
                                      l.pad_left,
                                      l.pad_bottom,
                                      l.pad_right,
                                      int64_t(l.weights.size()),
                                      l.fp16,
                                      int64_t(l.weights_fp16.size()),
                                      int64_t(l.bias.size()),
                                      int64_t(l.multiplier.size()),
                                      int64_t(l.shift.size()),
                                      int64_t(l.table.size()),
                                      int64_t(c.sram_budget),
                                      c.input_on_chip,
                                      c.output_on_chip,
                                      c.input_pixel_stride,
                                      c.output_read_by_depthwise};
  return FieldsKey(config_bytes, shape);
}

}  // namespace

TilingSurveyMemo::TilingSurveyMemo(const spec::NpuConfig& config)
    : config_(config), config_bytes_(config.SerializeAsString()) {}

StatusOr<TilingOutlook> TilingSurveyMemo::Survey(const ConvLayer& layer,
                                                 const TilingContext& context) {
  static Remembered<TilingOutlook> surveys;
  return FindOrSearch(surveys, Key(config_bytes_, layer, context),
                      [&] { return SurveyTilings(config_, layer, context); });
}

StatusOr<TilingChoice> TilingSurveyMemo::Choose(const ConvLayer& layer,
                                                const TilingContext& context) {
  if (context.held != nullptr) return ChooseTiling(config_, layer, context);
  static Remembered<TilingChoice> choices;
  return FindOrSearch(choices, Key(config_bytes_, layer, context),
                      [&] { return ChooseTiling(config_, layer, context); });
}

}  // namespace npu::compiler
