// Stand-ins for a build without compiler/onnx.
#include <fmt/format.h>

#include "tools/npu_opt/onnx_io.h"

namespace npu::tools {

StatusOr<compiler::ir::Graph> ReadOnnx(const std::string& path, int64_t) {
  return Unimplemented(fmt::format("cannot read {}: npu_opt is built without ONNX import", path));
}

Status WriteOnnx(const compiler::ir::Graph&, const std::string& path) {
  return Unimplemented(fmt::format("cannot write {}: npu_opt is built without ONNX export", path));
}

}  // namespace npu::tools
