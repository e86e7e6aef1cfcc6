// ReadWholeFile.
#include "hw/spec/file_io.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

namespace npu::spec {

StatusOr<std::string> ReadWholeFile(const std::string& path, const std::string& what) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return InvalidArgument(fmt::format("{} '{}' is a directory, not a file", what, path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return NotFound(fmt::format("cannot open {} '{}': {}", what, path, std::strerror(errno)));
  // Into one string sized up front where the size is known (a model of hundreds of MB through a
  // string stream was copied at each of its doublings, and once more out of it).
  std::string bytes;
  if (const uintmax_t size = std::filesystem::file_size(path, error); !error) bytes.reserve(size);
  std::vector<char> chunk(size_t{1} << 20);
  while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
    bytes.append(chunk.data(), size_t(in.gcount()));
  }
  if (in.bad()) {
    return DataLoss(fmt::format("cannot read {} '{}': {}", what, path, std::strerror(errno)));
  }
  return bytes;
}

Status WriteFileAtomically(const std::string& path, std::string_view contents,
                           const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) {
    return NotFound(
        fmt::format("cannot create the folder of {} '{}': {}", what, path, ec.message()));
  }
  const std::string temporary = fmt::format("{}.{}.tmp", path, ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), std::streamsize(contents.size()));
    out.close();
    if (!out) {
      const std::string reason = std::strerror(errno);
      fs::remove(temporary, ec);
      return DataLoss(fmt::format("cannot write {} '{}': {}", what, temporary, reason));
    }
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    fs::remove(temporary, ec);
    return DataLoss(fmt::format("cannot store {} '{}': {}", what, path, ec.message()));
  }
  return Status::Ok();
}

}  // namespace npu::spec
