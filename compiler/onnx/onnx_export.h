// ONNX export of a float graph (NCHW activations) made of the ops import takes, so that any
// graph, e.g. a built-in model, can be checked by other ONNX tools (onnx.checker, onnxruntime,
// Netron). Importing the result gives back the same printed IR (compiler/onnx/README.md).
//
// Refused with one error listing every offender: ops ONNX does not have (fused_conv, ...),
// layout-aware ops (conv, pools, batch norm) on NHWC tensors (export inserts no transposes:
// export before the layout pass; other ops' NHWC tensors are written as stored), tensors
// carrying quantisation parameters, graph inputs and outputs without an element type.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// The serialised ModelProto at default-domain `opset` (11..17).
StatusOr<std::string> ExportOnnx(const ir::Graph& graph, int64_t opset = 13);

}  // namespace npu::compiler
