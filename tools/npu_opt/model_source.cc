// Model loading and export for npu_opt.
#include "tools/npu_opt/model_source.h"

#include <fmt/format.h>

namespace npu::tools {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

StatusOr<compiler::ir::Graph> LoadModel(const std::string& source,
                                        const workloads::ModelOptions& options) {
  if (EndsWith(source, ".onnx")) {
    return Unimplemented(
        fmt::format("cannot read {}: this npu_opt is built without ONNX import", source));
  }
  return workloads::BuildModel(source, options);
}

Status ExportModel(const compiler::ir::Graph& graph, const std::string& path) {
  return Unimplemented(
      fmt::format("cannot write {}: this npu_opt is built without ONNX export", path));
}

}  // namespace npu::tools
