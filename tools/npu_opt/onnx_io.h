// npu_opt's ONNX reading and writing. CMake builds onnx_io.cc (through compiler/onnx) when the
// npu_onnx library is part of the build, else onnx_io_missing.cc, whose functions say so.
#pragma once

#include <string>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::tools {

StatusOr<compiler::ir::Graph> ReadOnnx(const std::string& path, int64_t batch);
Status WriteOnnx(const compiler::ir::Graph& graph, const std::string& path);

}  // namespace npu::tools
