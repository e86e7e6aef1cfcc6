// ONNX files through compiler/onnx (batch 1: the quantised IR's).
#include "tools/npu_quant/onnx_read.h"

#include "compiler/onnx/onnx_import.h"

namespace npu::tools {

StatusOr<compiler::ir::Graph> ReadOnnxModel(const std::string& path) {
  compiler::ImportOptions options;
  options.batch = 1;
  return compiler::ImportOnnxFile(path, options);
}

}  // namespace npu::tools
