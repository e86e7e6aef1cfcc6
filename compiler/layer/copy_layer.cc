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
  return Status::Ok();
}

}  // namespace npu::compiler
