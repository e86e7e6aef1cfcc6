// The version line; the BuildInfo itself is generated (cmake/build_info.cmake).
#include "tools/common/build_info.h"

#include <fmt/format.h>

namespace npu::tools {

std::string VersionLine(const std::string& tool) {
  const BuildInfo& b = GetBuildInfo();
  return fmt::format("{} {} (commit {}{}, {})", tool, b.version, b.commit.substr(0, 12),
                     b.dirty ? "+dirty" : "", b.build_type);
}

}  // namespace npu::tools
