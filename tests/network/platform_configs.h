// The configs the whole-network platform tests (network_e2e_test, replay_agreement_test) run the
// built-in models on, as --set overrides of the default: a small 8x8 array with a small SRAM, a
// large 64x64 output-stationary array with a large SRAM, and a 16x16 output-stationary array
// with 256 KiB.
#pragma once

#include <string>
#include <vector>

namespace npu::testing {

inline const std::vector<std::string> kSmallArray = {"mac.rows=8", "mac.cols=8",
                                                     "sram.size_bytes=131072"};
inline const std::vector<std::string> kLargeOutputStationary = {
    "mac.rows=64", "mac.cols=64", "mac.dataflow=OUTPUT_STATIONARY", "sram.size_bytes=4194304"};
inline const std::vector<std::string> kOutputStationary16 = {
    "mac.rows=16", "mac.cols=16", "mac.dataflow=OUTPUT_STATIONARY", "sram.size_bytes=262144"};

}  // namespace npu::testing
