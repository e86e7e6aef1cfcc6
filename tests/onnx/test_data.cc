// Test data access. The .npy reader takes format versions 1 to 3 with descr '<f4' and C order:
// magic "\x93NUMPY", major, minor, header length (2 bytes in v1, 4 after), a Python dict header.
#include "tests/onnx/test_data.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace npu::compiler::onnx_test {
namespace {

StatusOr<std::vector<int64_t>> ParseShape(const std::string& header) {
  const size_t key = header.find("'shape':");
  const size_t open = header.find('(', key), close = header.find(')', open);
  if (key == std::string::npos || open == std::string::npos || close == std::string::npos) {
    return InvalidArgument("npy header has no shape: " + header);
  }
  std::vector<int64_t> shape;
  std::stringstream dims(header.substr(open + 1, close - open - 1));
  for (std::string dim; std::getline(dims, dim, ',');) {
    if (dim.find_first_of("0123456789") != std::string::npos) shape.push_back(std::stoll(dim));
  }
  return shape;
}

}  // namespace

std::string DataPath(const std::string& file) {
  return std::string(NPU_SOURCE_DIR) + "/tests/onnx/data/" + file;
}

namespace {

std::vector<ManifestEntry> ReadManifestFile(const std::string& path) {
  std::ifstream in(path);
  std::vector<ManifestEntry> entries;
  ManifestEntry e;
  while (in >> e.model >> e.input >> e.output) entries.push_back(e);
  return entries;
}

}  // namespace

std::vector<ManifestEntry> ReadManifest() { return ReadManifestFile(DataPath("manifest.txt")); }

std::string CorpusDir() {
  const char* dir = std::getenv("NPU_CORPUS_DIR");
  return dir != nullptr ? dir : std::string(NPU_SOURCE_DIR) + "/tests/corpus/data";
}

std::vector<ManifestEntry> ReadCorpusManifest() {
  return ReadManifestFile(CorpusDir() + "/manifest.txt");
}

void PrintTo(const ManifestEntry& e, std::ostream* os) { *os << e.model; }

StatusOr<NpyArray> ReadNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open " + path);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) {
    return InvalidArgument(path + " is not an .npy file");
  }
  const int major = static_cast<uint8_t>(bytes[6]);
  const size_t len_bytes = major == 1 ? 2 : 4;
  size_t header_len = 0;
  for (size_t i = 0; i < len_bytes; ++i) header_len |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
  const size_t data_at = 8 + len_bytes + header_len;
  if (data_at > bytes.size()) return InvalidArgument(path + ": truncated header");
  const std::string header = bytes.substr(8 + len_bytes, header_len);
  if (header.find("'<f4'") == std::string::npos ||
      header.find("'fortran_order': False") == std::string::npos) {
    return InvalidArgument(path + ": only little-endian float32 in C order is read: " + header);
  }
  NpyArray array;
  NPU_ASSIGN_OR_RETURN(array.shape, ParseShape(header));
  int64_t count = 1;
  for (int64_t d : array.shape) count *= d;
  if (bytes.size() - data_at != static_cast<size_t>(count) * sizeof(float)) {
    return InvalidArgument(
        fmt::format("{}: {} data bytes for {} floats", path, bytes.size() - data_at, count));
  }
  array.values.resize(count);
  std::memcpy(array.values.data(), bytes.data() + data_at, count * sizeof(float));
  return array;
}

}  // namespace npu::compiler::onnx_test
