// Fuzz targets: ONNX import and the front-end pipeline. fuzz_onnx_import takes arbitrary bytes
// (libFuzzer's byte mutations mostly break the protobuf encoding); fuzz_onnx_model links
// onnx_custom_mutator.cc as well, so that libFuzzer mutates parsed models and nearly every input
// is a model that reaches import's and the passes' checks.
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/onnx_front_end.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npu::fuzz::CheckOnnxFrontEnd(npu::fuzz::AsText(data, size));
  return 0;
}
