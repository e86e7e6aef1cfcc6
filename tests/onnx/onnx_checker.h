// ONNX's own checker, then its shape inference in strict mode (what onnx.checker's full_check
// does), on serialised model bytes: the independent judge of what our exporter writes.
#pragma once

#include <string>

namespace npu::compiler::testing {

// "" if the model passes both, else what failed.
std::string OnnxCheckerError(const std::string& bytes);

}  // namespace npu::compiler::testing
