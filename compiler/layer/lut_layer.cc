// CheckLutLayer.
#include "compiler/layer/lut_layer.h"

#include <fmt/format.h>

#include "hw/spec/isa.h"

namespace npu::compiler {

Status CheckOptionalTable(const std::vector<int8_t>& table) {
  if (table.empty() || table.size() == spec::kLutEntries) return Status::Ok();
  return InvalidArgument(
      fmt::format("table has {} entries; a lookup table has {}", table.size(), spec::kLutEntries));
}

Status CheckLutLayer(const LutLayer& l) {
  Status status = Status::Ok();
  if (l.h == 0 || l.w == 0 || l.c == 0) {
    status = InvalidArgument(
        fmt::format("shape {}x{}x{}: every dimension must be at least 1", l.h, l.w, l.c));
  } else if (l.table.empty()) {
    status = InvalidArgument(fmt::format("no table; a lookup table has {}", spec::kLutEntries));
  } else if (l.table.size() != l.TableBytes()) {
    status = InvalidArgument(fmt::format("table of {} bytes; a lookup table {}has {} entries of {}",
                                         l.table.size(), l.fp16_out ? "to FP16 " : "",
                                         spec::kLutEntries, l.OutputElementBytes()));
  }
  return status.WithContext(fmt::format("layer '{}'", l.DisplayName()));
}

}  // namespace npu::compiler
