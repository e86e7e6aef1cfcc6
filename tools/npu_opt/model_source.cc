// Model loading and export for npu_opt.
#include "tools/npu_opt/model_source.h"

#include "tools/npu_opt/onnx_io.h"

namespace npu::tools {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

StatusOr<compiler::ir::Graph> LoadModel(const std::string& source,
                                        const workloads::ModelOptions& options) {
  if (!EndsWith(source, ".onnx")) return workloads::BuildModel(source, options);
  return ReadOnnx(source, options.batch);
}

Status ExportModel(const compiler::ir::Graph& graph, const std::string& path) {
  return WriteOnnx(graph, path);
}

}  // namespace npu::tools
