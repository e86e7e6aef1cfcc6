// Writes the seed programs of the firmware and platform fuzz targets (targets.txt): what the
// compiler makes for the fuzz board (FuzzBoardConfig) from the small ONNX test models, each as
// the compiler places it and with every op the control core can run forced onto it (so the seeds
// have CPU steps for the kernels). <corpus>/program gets the serialised Programs, <corpus>/binary
// the sealed binaries. Run it again when the binary format or the board's architecture changes
// (program_seeds_test fails then):
//   build/tests/fuzz/fuzz_make_program_seeds tests/fuzz/corpus
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compiler/network/model_pipeline.h"
#include "hw/spec/cpu_ops.h"
#include "tests/fuzz/fuzz_board.h"

namespace {

namespace fs = std::filesystem;

// Models under tests/, small enough that their programs stay seeds of a few kilobytes to a
// hundred, together covering the NPU's instructions and the CPU kernels.
constexpr const char* kModels[] = {
    "tests/onnx/data/small_cnn.op13.onnx",
    "tests/onnx/data/dw_separable.op13.onnx",
    "tests/onnx/data/mlp.op13.onnx",
    "tests/onnx/data/view_chain.op17.onnx",
    "tests/onnx/data/qdq_cnn.op13.onnx",
    "tests/corpus/data/cnn1d.op17.onnx",
    "tests/corpus/data/transformer_encoder.op17.onnx",
    "tests/corpus/data/shufflenet_v2.op17.onnx",
};

bool Write(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out.flush());
}

// One model, compiled as `variant` ("npu": as placed; "cpu": CPU ops wherever a kernel exists).
bool WriteSeed(const fs::path& corpus, const std::string& model, const std::string& variant) {
  npu::compiler::ModelPipelineOptions options;
  options.calibration_samples = 1;
  options.compute_reference = false;
  if (variant == "cpu") {
    for (std::string_view kernel : npu::spec::CpuKernelNames()) {
      options.compile.cpu_ops.emplace_back(kernel);
    }
  }
  const std::string source = fs::path(NPU_SOURCE_DIR) / model;
  npu::StatusOr<npu::compiler::PreparedModel> prepared =
      npu::compiler::PrepareModel(source, npu::fuzz::FuzzBoardConfig(), options);
  if (!prepared.ok()) {
    std::fprintf(stderr, "%s (%s): %s\n", model.c_str(), variant.c_str(),
                 prepared.status().message().c_str());
    return false;
  }
  const npu::spec::Program& program = prepared->compiled.program;
  const std::string stem = fs::path(model).stem().stem().string() + "." + variant;
  return Write(corpus / "program" / (stem + ".pb"), program.SerializeAsString()) &&
         Write(corpus / "binary" / (stem + ".npub"), npu::fuzz::SealForBoard(program));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR (e.g. tests/fuzz/corpus)\n", argv[0]);
    return 2;
  }
  const fs::path corpus = argv[1];
  std::error_code error;
  fs::create_directories(corpus / "program", error);
  fs::create_directories(corpus / "binary", error);
  for (const char* model : kModels) {
    for (const char* variant : {"npu", "cpu"}) {
      if (!WriteSeed(corpus, model, variant)) return 1;
    }
  }
  return 0;
}
