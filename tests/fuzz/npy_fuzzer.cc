// Fuzz target: the .npy decoder (tools/common/npy.*), the format run_workload reads inputs from.
// Properties: any bytes give an array or an error; an accepted array holds exactly the bytes its
// shape and dtype need; FiniteFloats passes only finite values; encoding an accepted array and
// decoding it again gives the same array.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_target.h"
#include "tools/common/npy.h"

namespace {

using npu::fuzz::Finding;
using npu::tools::NpyArray;

// Element bytes for the dtypes DecodeNpy accepts.
uint64_t ElementBytes(const std::string& dtype) {
  if (dtype == "|i1" || dtype == "|u1") return 1;
  if (dtype == "<i4" || dtype == "<f4") return 4;
  if (dtype == "<i8") return 8;
  Finding("DecodeNpy accepted dtype '" + dtype + "'");
}

// The bytes the shape and dtype need, or false if that overflows 64 bits (a shape with a zero
// dimension needs none, however large the others).
bool NeededBytes(const NpyArray& a, uint64_t& bytes) {
  bytes = ElementBytes(a.dtype);
  for (int64_t d : a.shape) {
    if (d < 0) return false;
    if (d == 0) {
      bytes = 0;
      return true;
    }
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(npu::fuzz::AsText(data, size));
  npu::StatusOr<NpyArray> array = npu::tools::DecodeNpy(bytes, "input");
  if (!array.ok()) return 0;
  uint64_t needed = 0;
  if (!NeededBytes(*array, needed) || needed != array->data.size()) {
    Finding("DecodeNpy accepted a shape that does not match its data bytes");
  }
  if (array->dtype == "<f4") {
    npu::StatusOr<std::vector<float>> values = npu::tools::FiniteFloats(*array, "input");
    if (values.ok() &&
        !std::all_of(values->begin(), values->end(), [](float v) { return std::isfinite(v); })) {
      Finding("FiniteFloats passed a value that is not finite");
    }
  }
  npu::StatusOr<NpyArray> again = npu::tools::DecodeNpy(npu::tools::EncodeNpy(*array), "again");
  if (!again.ok())
    Finding("an accepted array does not decode once re-encoded: " + again.status().message());
  if (again->dtype != array->dtype || again->shape != array->shape || again->data != array->data) {
    Finding("an accepted array changes when re-encoded and decoded");
  }
  return 0;
}
