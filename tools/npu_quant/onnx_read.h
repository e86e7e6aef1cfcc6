// npu_quant's ONNX reading: onnx_read.cc (through compiler/onnx) when the npu_onnx library is part
// of the build, else onnx_read_missing.cc, which says so.
#pragma once

#include <string>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::tools {

StatusOr<compiler::ir::Graph> ReadOnnxModel(const std::string& path);

}  // namespace npu::tools
