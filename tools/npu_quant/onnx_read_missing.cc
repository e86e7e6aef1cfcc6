// Stand-in for a build without compiler/onnx.
#include <fmt/format.h>

#include "tools/npu_quant/onnx_read.h"

namespace npu::tools {

StatusOr<compiler::ir::Graph> ReadOnnxModel(const std::string& path) {
  return Unimplemented(fmt::format("cannot read {}: npu_quant is built without ONNX import", path));
}

}  // namespace npu::tools
