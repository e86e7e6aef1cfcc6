// CheckCopyLayer.
#include "compiler/layer/copy_layer.h"

#include <fmt/format.h>

namespace npu::compiler {

Status CheckCopyLayer(const CopyLayer& l) {
  if (l.h > 0 && l.w > 0 && l.c > 0) return Status::Ok();
  return InvalidArgument(
      fmt::format("layer '{}': shape {}x{}x{}: every dimension must be at least 1", l.DisplayName(),
                  l.h, l.w, l.c));
}

}  // namespace npu::compiler
