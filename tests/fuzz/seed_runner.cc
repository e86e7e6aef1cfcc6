// The fuzz targets without libFuzzer: feeds every file under the given paths (files or folders,
// in name order) to LLVMFuzzerTestOneInput once. The normal build's tests run each target's seed
// corpus this way, so any compiler builds and checks the targets and their regression inputs.
//   fuzz_npy tests/fuzz/corpus/npy tests/onnx/data/mlp.input.npy
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "tests/fuzz/fuzz_target.h"

namespace {

namespace fs = std::filesystem;

// The regular files named by `path`: itself, or those below it. False if it does not exist.
bool CollectInputs(const fs::path& path, std::vector<fs::path>& inputs) {
  std::error_code error;
  if (fs::is_regular_file(path, error)) {
    inputs.push_back(path);
    return true;
  }
  if (!fs::is_directory(path, error)) return false;
  for (const auto& entry : fs::recursive_directory_iterator(path, error)) {
    if (entry.is_regular_file()) inputs.push_back(entry.path());
  }
  return !error;
}

bool ReadBytes(const fs::path& path, std::string& bytes) {
  std::ifstream in(path, std::ios::binary);
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (!CollectInputs(argv[i], inputs)) {
      std::fprintf(stderr, "%s: '%s' is not a readable file or folder\n", argv[0], argv[i]);
      return 2;
    }
  }
  if (inputs.empty()) {  // an empty corpus would pass while testing nothing
    std::fprintf(stderr, "usage: %s FILE_OR_FOLDER...  (no inputs found)\n", argv[0]);
    return 2;
  }
  std::sort(inputs.begin(), inputs.end());
  std::string bytes;
  for (const fs::path& input : inputs) {
    if (!ReadBytes(input, bytes)) {
      std::fprintf(stderr, "%s: cannot read '%s'\n", argv[0], input.c_str());
      return 2;
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%zu inputs, no finding\n", inputs.size());
  return 0;
}
