// What the firmware targets do with one binary: the driver (firmware/driver.cc) probes the
// board and loads the binary, which runs every check the firmware makes before anything runs;
// if it loads, its CPU steps run on the board's DRAM (firmware/cpu, with the kernels' own
// checks). NPU steps are left out: they need the NPU, which platform_fuzzer.cc runs.
#pragma once

#include <string_view>

#include "hw/spec/status.h"
#include "tests/fuzz/fuzz_board.h"

namespace npu::fuzz {

// The first error, from the load or a CPU step; a board that does not probe is a finding.
Status LoadAndRunCpuSteps(FuzzBoard& board, std::string_view binary);

}  // namespace npu::fuzz
