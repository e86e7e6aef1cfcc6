// The one include of the ONNX protobuf schema (onnx-ml.pb.h through onnx_pb.h, as Debian's
// libonnx-dev builds it with ONNX_ML=1), and a short alias for its namespace: inside
// npu::compiler a bare `onnx::` would be ambiguous to the reader.
#pragma once

#include <onnx/onnx_pb.h>

namespace npu::compiler::onnx_detail {
namespace pb = ::onnx;
}  // namespace npu::compiler::onnx_detail
