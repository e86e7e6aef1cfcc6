// ONNX files through compiler/onnx.
#include "tools/npu_opt/onnx_io.h"

#include "compiler/onnx/onnx_export.h"
#include "compiler/onnx/onnx_import.h"
#include "tools/common/output_files.h"

namespace npu::tools {

StatusOr<compiler::ir::Graph> ReadOnnx(const std::string& path, int64_t batch) {
  compiler::ImportOptions options;
  options.batch = batch;
  return compiler::ImportOnnxFile(path, options);
}

Status WriteOnnx(const compiler::ir::Graph& graph, const std::string& path) {
  NPU_ASSIGN_OR_RETURN(std::string bytes, compiler::ExportOnnx(graph));
  OutputFiles files;  // whole or absent
  files.Add(path, std::move(bytes));
  return files.Commit();
}

}  // namespace npu::tools
