// Import, then the front-end pipeline, which verifies the graph after every pass.
#include "tests/fuzz/onnx_front_end.h"

#include "compiler/onnx/onnx_import.h"
#include "compiler/passes/pipeline.h"
#include "tests/fuzz/fuzz_target.h"

namespace npu::fuzz {

void CheckOnnxFrontEnd(std::string_view model_bytes) {
  StatusOr<compiler::ir::Graph> graph = compiler::ImportOnnxBytes(model_bytes);
  if (!graph.ok()) {
    RequireNotInternal(graph.status(), "ONNX import");
    return;
  }
  compiler::passes::PassContext ctx;
  RequireNotInternal(compiler::passes::RunPipeline(*graph, {}, ctx), "the front-end pipeline");
}

}  // namespace npu::fuzz
