// Where npu_opt's graphs come from and go to: built-in models, and ONNX files when the ONNX
// importer/exporter (compiler/onnx) is part of the build (onnx_io.h).
#pragma once

#include <string>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"
#include "workloads/models/models.h"

namespace npu::tools {

// A built-in model name, or a path ending in ".onnx".
StatusOr<compiler::ir::Graph> LoadModel(const std::string& source,
                                        const workloads::ModelOptions& options);

Status ExportModel(const compiler::ir::Graph& graph, const std::string& path);

}  // namespace npu::tools
