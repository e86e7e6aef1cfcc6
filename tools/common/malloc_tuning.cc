// ReexecWithHugePageMalloc.
#include "tools/common/malloc_tuning.h"

#include <unistd.h>

#include <cstdlib>

namespace npu::tools {

void ReexecWithHugePageMalloc(char** argv) {
  if (std::getenv("GLIBC_TUNABLES") != nullptr || std::getenv("NPU_NO_HUGE_PAGES") != nullptr) {
    return;  // set already (by us before the exec, or by the user): leave it as it is
  }
  if (setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", /*overwrite=*/0) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("GLIBC_TUNABLES");  // the exec failed: run as we are
}

}  // namespace npu::tools
