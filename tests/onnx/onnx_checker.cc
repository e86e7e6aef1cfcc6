// Running libonnx's checker and strict shape inference.
#include "tests/onnx/onnx_checker.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

namespace npu::compiler::testing {

std::string OnnxCheckerError(const std::string& bytes) {
  ::onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) return "does not parse";
  try {
    ::onnx::checker::check_model(model);
    ::onnx::shape_inference::InferShapes(model, ::onnx::OpSchemaRegistry::Instance(),
                                         ::onnx::ShapeInferenceOptions(true, 1, false));
  } catch (const std::exception& e) {  // libonnx reports by exception; ours never throws
    return e.what();
  }
  return "";
}

}  // namespace npu::compiler::testing
