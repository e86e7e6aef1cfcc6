// What an instruction's fields alone decide about whether it can run: the units' own field checks
// (CheckConv, CheckAct, ...) and every operand inside its memory. The firmware checks every
// instruction of a binary with it before the doorbell (firmware/program_check.h), so the NPU is
// only handed streams whose faults can come from data alone (a requantisation shift or a RESIZE
// tap read from SRAM).
#pragma once

#include <cstdint>
#include <string>

#include "hw/spec/isa.h"

namespace npu::spec {

// The memories an instruction may touch.
struct MemoryBounds {
  uint64_t dram_bytes = 0;   // from DRAM_BASE: the image the binary declares
  uint64_t sram_bytes = 0;   // the NPU's SRAM
  uint64_t acc_entries = 0;  // the accumulator buffer, int32 entries
};

// Empty if `insn` passes its unit's field checks, every operand lies inside `bounds` and a DMA
// moves no more bytes than the SRAM holds (more would write or read its SRAM side over again
// within one descriptor: never useful, and the way a damaged stride-0 descriptor asks for
// terabytes); else what is wrong, naming the field, its value and the limit.
std::string CheckInstructionBounds(const Instruction& insn, const MemoryBounds& bounds);

}  // namespace npu::spec
