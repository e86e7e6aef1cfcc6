// Where the compiler keeps what later runs reuse (quantised graphs, tunings): one folder per kind
// under the user's cache.
#pragma once

#include <string>
#include <string_view>

namespace npu::compiler {

// $NPU_CACHE_DIR/<kind>, else $XDG_CACHE_HOME/npu/<kind>, else $HOME/.cache/npu/<kind>; empty if
// none of them is set.
std::string DefaultCacheDir(std::string_view kind);

}  // namespace npu::compiler
