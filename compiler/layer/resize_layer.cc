// CheckResizeLayer: shapes, taps, quantisation, then what RESIZE encodes.
#include "compiler/layer/resize_layer.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "compiler/layer/int8_fields.h"

namespace npu::compiler {
namespace {

Status CheckTaps(const char* axis, const std::vector<spec::ResizeTap>& taps, uint32_t out,
                 uint32_t in) {
  if (taps.size() != out) {
    return InvalidArgument(
        fmt::format("{} {} taps for {} output {}s", taps.size(), axis, out, axis));
  }
  for (size_t i = 0; i < taps.size(); ++i) {
    const spec::ResizeTap& t = taps[i];
    if (t.i0 >= in || t.i1 >= in || t.w1 > uint32_t(spec::kResizeWeightOne)) {
      return InvalidArgument(
          fmt::format("{} tap {} ({}, {}, weight {}) outside the {} input {}s "
                      "or weighing over {}",
                      axis, i, t.i0, t.i1, t.w1, in, axis, spec::kResizeWeightOne));
    }
  }
  return Status::Ok();
}

Status CheckShape(const ResizeLayer& l) {
  const std::pair<const char*, uint32_t> dims[] = {{"in_h", l.in_h},
                                                   {"in_w", l.in_w},
                                                   {"channels", l.channels},
                                                   {"out_h", l.out_h},
                                                   {"out_w", l.out_w}};
  for (const auto& [field, value] : dims) {
    if (value == 0) return InvalidArgument(fmt::format("{} = 0: must be at least 1", field));
  }
  for (const auto& [field, value] : dims) {
    if (value > kMaxResizeExtent) {
      return Unimplemented(
          fmt::format("{} = {}: RESIZE encodes at most {}", field, value, kMaxResizeExtent));
    }
  }
  return Status::Ok();
}

}  // namespace

bool ResizeLayer::Nearest() const {
  auto whole = [](const spec::ResizeTap& t) {
    return t.w1 == 0 || t.w1 == uint32_t(spec::kResizeWeightOne);
  };
  return std::all_of(row_taps.begin(), row_taps.end(), whole) &&
         std::all_of(col_taps.begin(), col_taps.end(), whole);
}

Status CheckResizeLayer(const ResizeLayer& l) {
  Status status = CheckShape(l);
  if (status.ok()) status = CheckTaps("row", l.row_taps, l.out_h, l.in_h);
  if (status.ok()) status = CheckTaps("column", l.col_taps, l.out_w, l.in_w);
  if (status.ok()) status = CheckInt8Fields(l.zero_point, l.zero_point, -128, 127);
  return status.WithContext(fmt::format("layer '{}'", l.DisplayName()));
}

}  // namespace npu::compiler
