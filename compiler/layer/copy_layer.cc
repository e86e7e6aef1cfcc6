// CheckCopyLayer.
#include "compiler/layer/copy_layer.h"

#include <fmt/format.h>

#include "hw/spec/isa.h"

namespace npu::compiler {

Status CheckCopyLayer(const CopyLayer& l) {
  if (l.h == 0 || l.w == 0 || l.c == 0) {
    return InvalidArgument(
        fmt::format("layer '{}': shape {}x{}x{}: every dimension must be at least 1",
                    l.DisplayName(), l.h, l.w, l.c));
  }
  if (l.group == 0 || l.c % l.group != 0 || l.group > spec::kMaxSramElemStride) {
    return InvalidArgument(fmt::format(
        "layer '{}': group {} must divide the {} channels and be at most {} (the LOAD's SRAM "
        "element stride)",
        l.DisplayName(), l.group, l.c, spec::kMaxSramElemStride));
  }
  if (l.group == 1 && (l.group_stride != 0 || l.group_offset != 0)) {
    return InvalidArgument(fmt::format(
        "layer '{}': a group stride or offset without a shuffle (group 1)", l.DisplayName()));
  }
  if (l.group_stride != 0 && l.group_offset + l.PerGroup() > l.group_stride) {
    return InvalidArgument(fmt::format(
        "layer '{}': a window of {} channels from {} in groups {} channels apart overlaps the "
        "next group",
        l.DisplayName(), l.PerGroup(), l.group_offset, l.group_stride));
  }
  return Status::Ok();
}

}  // namespace npu::compiler
