// ONNX files through compiler/onnx.
#include "tools/npu_opt/onnx_io.h"

#include "compiler/onnx/onnx_export.h"
#include "compiler/onnx/onnx_import.h"

namespace npu::tools {

StatusOr<compiler::ir::Graph> ReadOnnx(const std::string& path, int64_t batch) {
  compiler::ImportOptions options;
  options.batch = batch;
  return compiler::ImportOnnxFile(path, options);
}

Status WriteOnnx(const compiler::ir::Graph& graph, const std::string& path) {
  return compiler::ExportOnnxFile(graph, path);
}

}  // namespace npu::tools
