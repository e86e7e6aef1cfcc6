// One CPU op of a program on the control core (docs/cpu-fallback.md): its operands are read from
// DRAM, its kernel runs, the core spends the time the cost model gives the kernel's work, and its
// outputs are written back to DRAM.
#pragma once

#include <cstdint>

#include "firmware/bus.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/status.h"

namespace npu::fw {

// Before anything runs: the kernel exists, every operand lies inside the image and has the size
// its shape and type give, and the operands and attributes keep the kernel's rules (its check in
// the kernel table, kernels.h), so that running it stays inside its buffers.
Status CheckCpuOp(const spec::CpuOp& op, uint64_t image_bytes);

// Runs an op that passed CheckCpuOp.
Status RunCpuOp(Bus& bus, const spec::CpuOp& op);

}  // namespace npu::fw
