// What a tool was built from: the project version, the commit and whether the tree had
// uncommitted changes, and the build type. Generated at every build (cmake/build_info.cmake), so
// `--version` and every report's provenance name the code that produced them.
#pragma once

#include <string>

namespace npu::tools {

struct BuildInfo {
  std::string version;     // the project's version (CMakeLists.txt)
  std::string commit;      // full hash, or "unknown" outside a git checkout
  bool dirty = false;      // tracked files differed from the commit
  std::string build_type;  // Release, RelWithDebInfo, ...
};

const BuildInfo& GetBuildInfo();

// "<tool> 0.10.0 (commit 1a2b3c4d5e6f+dirty, Release)": what --version prints.
std::string VersionLine(const std::string& tool);

// What identifies the code this process runs, for caches of its results: the version, commit and
// build type, and where those do not pin the code down (a modified tree, no git) the running
// executable's size and modification time as well.
std::string CodeIdentity();

}  // namespace npu::tools
