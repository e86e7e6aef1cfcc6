// Structure-aware mutation of ONNX models for onnx_model_fuzzer.cc: each call makes one change
// aimed at what import and the front-end passes check (a dimension, an initializer's dims or
// data, an attribute, a node's inputs, an op type) or, one time in kGenericOneIn, a change to any
// field (ProtoMutator). The model stays a parseable ModelProto, so every input reaches import.
#pragma once

#include "compiler/onnx/proto.h"
#include "tests/fuzz/proto_mutator.h"

namespace npu::fuzz {

void MutateOnnxModel(::onnx::ModelProto& model, ProtoMutator& mutator);

}  // namespace npu::fuzz
