// Reporting a violated property the way libFuzzer reports a crash: a message, then abort().
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/fuzz_target.h"

namespace npu::fuzz {

void Finding(std::string_view what) {
  std::fprintf(stderr, "fuzz finding: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

void RequireNotInternal(const Status& status, std::string_view where) {
  if (status.kind() == ErrorKind::kInternal) {
    Finding(std::string(where) + " answered with an internal error: " + status.message());
  }
}

}  // namespace npu::fuzz
