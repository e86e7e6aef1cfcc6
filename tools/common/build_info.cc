// The version line; the BuildInfo itself is generated (cmake/build_info.cmake).
#include "tools/common/build_info.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

namespace npu::tools {

std::string VersionLine(const std::string& tool) {
  const BuildInfo& b = GetBuildInfo();
  return fmt::format("{} {} (commit {}{}, {})", tool, b.version, b.commit.substr(0, 12),
                     b.dirty ? "+dirty" : "", b.build_type);
}

std::string CodeIdentity() {
  const BuildInfo& b = GetBuildInfo();
  std::string identity = fmt::format("{} {} {}", b.version, b.commit, b.build_type);
  if (b.dirty || b.commit == "unknown") {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    const auto size = std::filesystem::file_size(exe, ec);
    const auto modified = std::filesystem::last_write_time(exe, ec).time_since_epoch().count();
    identity += fmt::format(" {} {} {}", exe.string(), size, modified);
  }
  return identity;
}

}  // namespace npu::tools
