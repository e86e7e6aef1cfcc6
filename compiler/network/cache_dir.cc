// DefaultCacheDir.
#include "compiler/network/cache_dir.h"

#include <cstdlib>
#include <utility>

namespace npu::compiler {

std::string DefaultCacheDir(std::string_view kind) {
  for (const auto& [variable, prefix] :
       {std::pair{"NPU_CACHE_DIR", "/"}, std::pair{"XDG_CACHE_HOME", "/npu/"},
        std::pair{"HOME", "/.cache/npu/"}}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') return std::string(value) + prefix + std::string(kind);
  }
  return "";
}

}  // namespace npu::compiler
