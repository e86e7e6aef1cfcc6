// The testbench side of the RTL reference (hw/rtl): the DPI functions through which the RTL reads
// its instructions and SRAM and updates the accumulator buffer, the events it reports, and what
// hw/spec says the same instructions compute and take.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::rtl {

// What the RTL sees and reports during one run.
struct BenchState {
  std::vector<spec::ConvArgs> insns;
  std::vector<int8_t> sram;
  std::vector<int32_t> acc;
  int64_t begin_cycle = -1;
  std::vector<int64_t> end_cycle;    // per instruction: its last fold's done cycle + 1
  std::vector<uint64_t> folds_done;  // per instruction
};
BenchState& State();

// Lays `convs` out in a fresh SRAM (each CONV's input and weights at their own addresses, random
// bytes; accumulator tiles as given) and resets the events.
void Prepare(const std::vector<spec::ConvArgs>& convs, uint32_t seed);

// The accumulator buffer hw/spec::ComputeConv leaves after the instructions, in order.
std::vector<int32_t> ExpectedAcc();

// Per instruction, the cycles hw/spec gives it back to back (spec::FoldChain decides chaining).
std::vector<uint64_t> ExpectedCycles(const spec::NpuConfig& config);

// "" if the RTL's accumulator, cycles (within max(1 %, 2 cycles)) and fold counts match hw/spec;
// else what differs. `measured` receives the RTL's per-instruction cycles.
std::string Check(const spec::NpuConfig& config, std::vector<uint64_t>* measured = nullptr);

// One line per CONV: the fields the RTL reads (tests/rtl/data/*.txt).
std::string FormatConv(const spec::ConvArgs& conv);
std::vector<spec::ConvArgs> ParseConvs(const std::string& text);

}  // namespace npu::rtl
