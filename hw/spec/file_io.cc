// ReadWholeFile.
#include "hw/spec/file_io.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace npu::spec {

StatusOr<std::string> ReadWholeFile(const std::string& path, const std::string& what) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return InvalidArgument(fmt::format("{} '{}' is a directory, not a file", what, path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return NotFound(fmt::format("cannot open {} '{}': {}", what, path, std::strerror(errno)));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) {
    return DataLoss(fmt::format("cannot read {} '{}': {}", what, path, std::strerror(errno)));
  }
  return bytes.str();
}

}  // namespace npu::spec
