// What both ONNX fuzz targets do with one model: import it (compiler/onnx) and run the front-end
// pipeline on it (compiler/passes). Either may refuse the model with a Status naming the fault;
// an internal error or a crash is a finding.
#pragma once

#include <string_view>

namespace npu::fuzz {

void CheckOnnxFrontEnd(std::string_view model_bytes);

}  // namespace npu::fuzz
