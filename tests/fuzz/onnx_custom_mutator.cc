// libFuzzer's custom mutator for fuzz_onnx_model: parse the input as an ONNX ModelProto, change
// it with MutateOnnxModel, serialise. libFuzzer builds only (it calls LLVMFuzzerMutate).
#include "compiler/onnx/proto.h"
#include "tests/fuzz/onnx_model_mutator.h"
#include "tests/fuzz/proto_mutator.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  ::onnx::ModelProto model;
  return npu::fuzz::MutateSerialized(
      model, data, size, max_size, seed, LLVMFuzzerMutate,
      [](google::protobuf::Message& m, npu::fuzz::ProtoMutator& mutator) {
        npu::fuzz::MutateOnnxModel(static_cast<::onnx::ModelProto&>(m), mutator);
      });
}
