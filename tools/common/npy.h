// Reading and writing NumPy .npy files (format version 1.0, C order, little-endian), the files
// run_workload takes inputs from and writes outputs to. Only what the tools need: int8, uint8,
// int32, int64 and float32 arrays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/spec/status.h"

namespace npu::tools {

struct NpyArray {
  std::string dtype;  // NumPy descr: "|i1", "|u1", "<i4", "<i8", "<f4"
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;  // little-endian elements, C order
};

std::string EncodeNpy(const NpyArray& array);
// Fails naming the problem: not an .npy, unsupported version or dtype, Fortran order, size.
StatusOr<NpyArray> DecodeNpy(const std::string& bytes, const std::string& what);
StatusOr<NpyArray> ReadNpyFile(const std::string& path);

// The values of a float32 array, refusing NaN and infinities (undefined when cast to int8) with
// the element's index: "x.npy: element [0, 2, 5, 1] is nan; inputs must be finite".
StatusOr<std::vector<float>> FiniteFloats(const NpyArray& array, const std::string& what);

NpyArray Int8Array(const std::vector<int8_t>& values, std::vector<int64_t> shape);
NpyArray Float32Array(const std::vector<float>& values, std::vector<int64_t> shape);

}  // namespace npu::tools
