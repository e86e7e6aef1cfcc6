// What every fuzz target in this folder provides and uses. A target is one
// LLVMFuzzerTestOneInput; a libFuzzer build (-DNPU_FUZZ=ON, clang) links libFuzzer's main, the
// normal build links seed_runner.cc, which feeds the committed seed corpus to the same function
// (docs/reliability.md).
//
// A target returns normally for every input the code under test handles: a clear error Status is
// a correct answer to bad input. It calls Finding() when a property it checks does not hold, so
// the fuzzer records the input exactly as it does for a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hw/spec/status.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace npu::fuzz {

// Prints "fuzz finding: <what>" and aborts.
[[noreturn]] void Finding(std::string_view what);

// A Status of kind kInternal says "a bug of ours" (or, from a run, "the hardware failed"); the
// front end and the config code must answer any input with the input's fault instead.
void RequireNotInternal(const Status& status, std::string_view where);

inline std::string_view AsText(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace npu::fuzz
