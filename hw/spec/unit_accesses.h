// The SRAM accesses a vector unit instruction makes, in the order the unit makes them:
// the one definition the SystemC unit performs (hw/act), the compiler's event
// replay books against its bank model (compiler/cost) and spec::IdealCycles sums. An access is
// `count` runs of `run` bytes, `stride` bytes apart, moved as one SRAM transaction; the reads of
// an instruction all come before its writes. LOAD and STORE are not listed: their bursts access
// the SRAM one by one (timing_model.h, SplitIntoBursts, BurstSramAccess). Which bytes and bank
// words an access touches is sram_words.h's.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/spec/isa.h"

namespace npu::spec {

struct SramAccess {
  uint64_t addr = 0;
  uint64_t run = 0;    // bytes per run
  uint64_t count = 1;  // runs
  uint64_t stride = 0;
  bool write = false;
  uint64_t elem_stride = 0;  // a run's bytes this far apart (0, 1: contiguous): a scatter

  uint64_t bytes() const { return run * count; }
  bool operator==(const SramAccess&) const = default;
};

// ACT: parameters, table (with use_table), output. POOL: input, output. ELTWISE: a, b
// (spec::EltwiseBBytes), output. LUT: table (unless bypass), input, output (with channels: one
// run per pixel unless dense, the output's bytes out_elem_stride apart). RESIZE: row taps, column taps, input
// pixels, output. Outputs of ACT, POOL and RESIZE, and RESIZE's input, are one run per pixel
// unless dense. Empty for LOAD and STORE, and for CONV, whose operands stream from SRAM fold by
// fold as the array consumes them (operand_stream.h).
std::vector<SramAccess> UnitSramAccesses(const Instruction& insn);

// The SRAM a CONV's operands lie in: the weight block, the input region. What the MAC array's
// data comes from; its timing is the stream's (operand_stream.h), not these regions'.
std::vector<SramAccess> ConvOperandRegions(const ConvArgs& conv);

}  // namespace npu::spec
