// Every built-in model (workloads/models) exports to ONNX that ONNX's checker and strict shape
// inference accept, and imports back to a graph computing the same outputs.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>

#include "compiler/interp/interpreter.h"
#include "compiler/onnx/onnx_export.h"
#include "compiler/onnx/onnx_import.h"
#include "tests/onnx/onnx_checker.h"
#include "workloads/models/models.h"

namespace npu::compiler {
namespace {

std::string CheckerError(const std::string& bytes) { return testing::OnnxCheckerError(bytes); }

std::vector<interp::HostTensor> RunOrDie(const ir::Graph& g,
                                         const std::vector<interp::HostTensor>& inputs) {
  StatusOr<std::vector<interp::HostTensor>> out = interp::Interpret(g, inputs);
  EXPECT_TRUE(out.ok()) << out.status().message();
  return out.ok() ? *out : std::vector<interp::HostTensor>();
}

TEST(OnnxBuiltinModels, ExportCheckAndImportBackToTheSameOutputs) {
  for (const workloads::ModelInfo& info : workloads::ListModels()) {
    SCOPED_TRACE(info.name);
    workloads::ModelOptions options;
    options.image_size = info.default_image_size > 0 ? 32 : 0;  // small, for speed
    StatusOr<ir::Graph> g = workloads::BuildModel(info.name, options);
    ASSERT_TRUE(g.ok()) << g.status().message();
    StatusOr<std::string> bytes = ExportOnnx(*g);
    ASSERT_TRUE(bytes.ok()) << bytes.status().message();
    EXPECT_EQ(CheckerError(*bytes), "");
    StatusOr<ir::Graph> back = ImportOnnxBytes(*bytes);
    ASSERT_TRUE(back.ok()) << back.status().message();
    ASSERT_EQ(back->nodes().size(), g->nodes().size());

    const std::vector<interp::HostTensor> inputs = workloads::MakeInputs(*g);
    const std::vector<interp::HostTensor> want = RunOrDie(*g, inputs);
    const std::vector<interp::HostTensor> got = RunOrDie(*back, inputs);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].shape, want[i].shape);
      EXPECT_EQ(got[i].data, want[i].data);  // same ops, same weights: bit-identical
    }
  }
}

}  // namespace
}  // namespace npu::compiler
