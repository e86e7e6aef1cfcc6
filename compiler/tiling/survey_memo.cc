// TilingSurveyMemo.
#include "compiler/tiling/survey_memo.h"

namespace npu::compiler {
namespace {

// Everything of `l` and `c` a survey can depend on (survey_memo.h says why not the data).
std::vector<int64_t> Key(const ConvLayer& l, const TilingContext& c) {
  return {l.depthwise,
          l.groups,
          l.activation_weights,
          l.weights_nk,
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
          c.input_pixel_stride};
}

}  // namespace

StatusOr<TilingOutlook> TilingSurveyMemo::Survey(const ConvLayer& layer,
                                                 const TilingContext& context) {
  std::vector<int64_t> key = Key(layer, context);
  if (const auto it = seen_.find(key); it != seen_.end()) return it->second;
  NPU_ASSIGN_OR_RETURN(const TilingOutlook outlook, SurveyTilings(config_, layer, context));
  seen_.emplace(std::move(key), outlook);
  return outlook;
}

}  // namespace npu::compiler
