// The committed ONNX test data (tests/onnx/data, written by
// tools/onnx_models/export_test_models.py): paths, the manifest, and .npy arrays.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "hw/spec/status.h"

namespace npu::compiler::onnx_test {

std::string DataPath(const std::string& file);  // tests/onnx/data/<file> in the source tree

struct ManifestEntry {
  std::string model;   // "small_cnn.op13.onnx"
  std::string input;   // "small_cnn.input.npy"
  std::string output;  // "small_cnn.output.npy"
};
std::vector<ManifestEntry> ReadManifest();
// The corpus of torch exports (tests/corpus/data, or $NPU_CORPUS_DIR if set): its directory and
// manifest (same format; empty if there is none yet).
std::string CorpusDir();
std::vector<ManifestEntry> ReadCorpusManifest();
void PrintTo(const ManifestEntry& e, std::ostream* os);  // gtest parameter names

// A little-endian float32 array in C order (what the script writes with numpy.save).
struct NpyArray {
  std::vector<int64_t> shape;
  std::vector<float> values;
};
StatusOr<NpyArray> ReadNpy(const std::string& path);

}  // namespace npu::compiler::onnx_test
