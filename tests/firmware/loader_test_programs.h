// Valid programs for the loader tests, and the edits the tests make to them: a compiled single
// layer with a CPU op after it, and whole models compiled with chosen ops on the control core.
#pragma once

#include <string>
#include <vector>

#include "hw/spec/binary.pb.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::testing {

// conv3x3 compiled for `config`, then a lookup-table CPU op from its output to a tensor placed
// after the image (dram_bytes grows to hold it).
spec::Program LayerWithCpuOp(const spec::NpuConfig& config);

// A built-in model or an .onnx path compiled for `config` with `cpu_ops` on the control core.
spec::Program CompiledModel(const std::string& model, const spec::NpuConfig& config,
                            const std::vector<std::string>& cpu_ops);

// Instruction `index` of the program, decoded; and replaced.
spec::Instruction InstructionAt(const spec::Program& p, size_t index);
void ReplaceInstruction(spec::Program& p, size_t index, const spec::Instruction& insn);
// The index of the first instruction with `opcode` (aborts if there is none).
size_t FirstOf(const spec::Program& p, spec::Opcode opcode);

}  // namespace npu::testing
