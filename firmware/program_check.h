// The firmware's trust boundary: everything it checks in a binary's program before it copies or
// runs any of it, so that a damaged or hostile file is refused with the reason (the field, its
// value and the limit) instead of reaching the hardware. docs/binary-format.md lists the checks.
// Pure functions of the program and the hardware's sizes: a host can run them too, before it
// spends anything on a file.
#pragma once

#include <cstdint>

#include "hw/spec/binary.pb.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::fw {

// The sizes a program must fit: the board's DRAM (from DRAM_BASE), and the NPU's SRAM and
// accumulator buffer (its SRAM_BYTES and ACC_ENTRIES registers).
struct HardwareLimits {
  uint64_t dram_bytes = 0;
  uint64_t sram_bytes = 0;
  uint64_t acc_entries = 0;
};
// The limits of the board and NPU built from `config`: what Probe reads from the registers.
HardwareLimits LimitsOf(const spec::NpuConfig& config);

// The image and its parts: the image fits DRAM; the instruction section is whole words; the
// instruction section, constant segments and input/output tensors lie inside the image; tensors
// are int8 with as many bytes as their shape has elements; nothing the host or a CPU op writes
// overlaps the instruction section; there are steps, each an NPU run inside the instructions or a
// CPU op this firmware can run (firmware/cpu/cpu_op.h); layer infos point at steps and
// instructions that exist.
Status CheckProgramLayout(const spec::Program& program, uint64_t dram_bytes);

// Every instruction an NPU run executes: it decodes (opcode, reserved bits, token masks), passes
// its unit's field checks, keeps every operand inside the image, the SRAM and the accumulator
// buffer, writes no DRAM inside the instruction section, and waits only for tokens an earlier
// instruction of the same run gives (so no run can deadlock on tokens). Assumes
// CheckProgramLayout passed.
Status CheckInstructions(const spec::Program& program, const HardwareLimits& limits);

// Both.
Status CheckProgram(const spec::Program& program, const HardwareLimits& limits);

}  // namespace npu::fw
