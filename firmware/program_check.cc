// The program checks, in the order CheckProgram applies them: the image, its sections and
// tensors, the steps, the layer infos, then every instruction an NPU run executes.
#include "firmware/program_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "firmware/cpu/cpu_op.h"
#include "hw/spec/config.h"
#include "hw/spec/cpu_ops.h"
#include "hw/spec/footprint.h"
#include "hw/spec/insn_bounds.h"
#include "hw/spec/isa.h"

namespace npu::fw {
namespace {

// A byte range of the image, from DRAM_BASE.
struct Range {
  uint64_t begin = 0, end = 0;
  bool Overlaps(const Range& o) const { return begin < o.end && o.begin < end; }
};

bool Inside(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}

Range InstructionSection(const spec::Program& p) {
  return {p.instruction_offset(), uint64_t{p.instruction_offset()} + p.instructions().size()};
}

// `what` lies inside the image and, if something writes it, outside the instruction section.
Status CheckPlace(const spec::Program& p, std::string_view what, uint64_t offset, uint64_t size,
                  bool written) {
  if (!Inside(offset, size, p.dram_bytes())) {
    return DataLoss(fmt::format("{} at DRAM offset {} ({} bytes) lies outside the image's {} bytes",
                                what, offset, size, p.dram_bytes()));
  }
  const Range section = InstructionSection(p);
  if (written && size > 0 && Range{offset, offset + size}.Overlaps(section)) {
    return DataLoss(
        fmt::format("{} at DRAM offset {} ({} bytes) overlaps the instruction "
                    "section [{}, {}): it would overwrite checked instructions",
                    what, offset, size, section.begin, section.end));
  }
  return Status::Ok();
}

// A host-visible tensor: int8 or FP16, as many bytes as its shape has elements times the
// element's (and at least one element).
Status CheckIoTensor(const spec::Program& p, const spec::TensorDesc& t, std::string_view role) {
  const std::string what = fmt::format("{} '{}'", role, t.name());
  if (t.dtype() != spec::INT8 && t.dtype() != spec::FLOAT16) {
    return DataLoss(fmt::format("{}: element type {} (int8 or float16 expected)", what,
                                spec::DataType_Name(t.dtype())));
  }
  const uint64_t elements = spec::Elements(t), element_bytes = t.dtype() == spec::FLOAT16 ? 2 : 1;
  if (elements == 0 || elements * element_bytes != t.size_bytes()) {
    return DataLoss(fmt::format("{}: shape [{}] has {} elements but the tensor has {} bytes", what,
                                fmt::join(t.shape(), ","), elements, t.size_bytes()));
  }
  return CheckPlace(p, what, t.dram_offset(), t.size_bytes(), /*written=*/true);
}

Status CheckSections(const spec::Program& p, uint64_t dram_bytes) {
  if (p.dram_bytes() > dram_bytes) {
    return ResourceExhausted(
        fmt::format("binary needs {} bytes of DRAM; the board has {}", p.dram_bytes(), dram_bytes));
  }
  if (p.instructions().size() % spec::kInsnBytes != 0) {
    return DataLoss(
        fmt::format("instruction section of {} bytes is not a whole number of {}-byte words",
                    p.instructions().size(), spec::kInsnBytes));
  }
  NPU_TRY(CheckPlace(p, "instruction section", p.instruction_offset(), p.instructions().size(),
                     /*written=*/false));
  for (const spec::Segment& s : p.constants()) {
    NPU_TRY(CheckPlace(p, "constant segment '" + s.name() + "'", s.dram_offset(), s.data().size(),
                       /*written=*/true));
  }
  for (const spec::TensorDesc& t : p.inputs()) NPU_TRY(CheckIoTensor(p, t, "input"));
  for (const spec::TensorDesc& t : p.outputs()) NPU_TRY(CheckIoTensor(p, t, "output"));
  return Status::Ok();
}

uint64_t InstructionCount(const spec::Program& p) {
  return p.instructions().size() / spec::kInsnBytes;
}

// Every step names instructions the program has, or a CPU op this firmware can run over tensors
// inside the image that writes nothing over the instructions.
Status CheckSteps(const spec::Program& p) {
  if (p.steps_size() == 0) return DataLoss("the binary has no steps to run");
  const uint64_t words = InstructionCount(p);
  for (int i = 0; i < p.steps_size(); ++i) {
    const spec::Step& step = p.steps(i);
    if (step.has_npu()) {
      const spec::NpuRun& run = step.npu();
      if (run.instruction_count() == 0 ||
          !Inside(run.first_instruction(), run.instruction_count(), words)) {
        return DataLoss(fmt::format(
            "step {}: NPU run of instructions [{}, +{}) outside the program's {} instructions", i,
            run.first_instruction(), run.instruction_count(), words));
      }
      continue;
    }
    if (!step.has_cpu())
      return DataLoss(fmt::format("step {} is neither an NPU run nor a CPU op", i));
    const std::string where = fmt::format("step {}", i);
    NPU_TRY(CheckCpuOp(step.cpu(), p.dram_bytes()).WithContext(where));
    for (const spec::TensorDesc& t : step.cpu().outputs()) {
      NPU_TRY(CheckPlace(p, "CPU op output '" + t.name() + "'", t.dram_offset(), t.size_bytes(),
                         /*written=*/true)
                  .WithContext(where));
    }
  }
  return Status::Ok();
}

// An interleaved layer's list: instruction_count ascending indices from first_instruction, each
// inside the program.
Status CheckInterleaved(const spec::LayerInfo& l, uint64_t words) {
  if (l.instructions_size() == 0) return Status::Ok();
  const auto& k = l.instructions();
  if (uint64_t(k.size()) != l.instruction_count() || k[0] != l.first_instruction() ||
      !std::is_sorted(k.begin(), k.end()) || std::adjacent_find(k.begin(), k.end()) != k.end() ||
      k[k.size() - 1] >= words) {
    return DataLoss(fmt::format(
        "layer '{}': its {} interleaved instruction indices are not {} ascending indices from {} "
        "inside the program's {} instructions",
        l.name(), k.size(), l.instruction_count(), l.first_instruction(), words));
  }
  return Status::Ok();
}

// Reports walk each layer's instructions and read its step: both must exist.
Status CheckLayerInfos(const spec::Program& p) {
  for (const spec::LayerInfo& l : p.layers()) {
    if (!Inside(l.first_instruction(), l.instruction_count(), InstructionCount(p))) {
      return DataLoss(
          fmt::format("layer '{}': instructions [{}, +{}) outside the program's {} instructions",
                      l.name(), l.first_instruction(), l.instruction_count(), InstructionCount(p)));
    }
    NPU_TRY(CheckInterleaved(l, InstructionCount(p)));
    if (l.step() >= uint64_t(p.steps_size())) {
      return DataLoss(fmt::format("layer '{}': step {} of a program with {} steps", l.name(),
                                  l.step(), p.steps_size()));
    }
  }
  return Status::Ok();
}

// Tokens given so far and not yet taken, per (giving queue, taking queue).
using TokenCounts = std::array<std::array<uint64_t, spec::kNumQueues>, spec::kNumQueues>;

// One instruction of an NPU run, `index` in the whole stream.
Status CheckInstruction(const spec::Program& p, const spec::MemoryBounds& bounds, uint64_t index,
                        TokenCounts& tokens) {
  const auto* word =
      reinterpret_cast<const uint8_t*>(p.instructions().data()) + index * spec::kInsnBytes;
  NPU_ASSIGN_OR_RETURN(const spec::Instruction insn, spec::Decode(word));
  const std::string_view op = spec::OpcodeName(insn.opcode);
  if (const std::string problem = spec::CheckInstructionBounds(insn, bounds); !problem.empty()) {
    return DataLoss(fmt::format("{}: {}", op, problem));
  }
  for (const spec::Footprint& f : spec::Footprints(insn)) {
    if (f.space == spec::Space::kDram && f.write &&
        Range{f.begin, f.end}.Overlaps(InstructionSection(p))) {
      return DataLoss(
          fmt::format("{}: {} {:#x} writes into the instruction section", op, f.field, f.begin));
    }
  }
  const int self = static_cast<int>(insn.queue());
  for (int q = 0; q < spec::kNumQueues; ++q) {
    if (!(insn.wait_mask >> q & 1)) continue;
    if (tokens[q][self] == 0) {
      return DataLoss(
          fmt::format("{} waits for a token from the {} queue that no earlier "
                      "instruction of its run gives: the run would deadlock",
                      op, spec::QueueName(spec::Queue(q))));
    }
    --tokens[q][self];
  }
  for (int q = 0; q < spec::kNumQueues; ++q) {
    if (insn.signal_mask >> q & 1) ++tokens[self][q];
  }
  return Status::Ok();
}

}  // namespace

HardwareLimits LimitsOf(const spec::NpuConfig& config) {
  return {config.dram().size_bytes(), config.sram().size_bytes(), spec::AccBufferEntries(config)};
}

Status CheckProgramLayout(const spec::Program& program, uint64_t dram_bytes) {
  NPU_TRY(CheckSections(program, dram_bytes));
  NPU_TRY(CheckSteps(program));
  return CheckLayerInfos(program);
}

Status CheckInstructions(const spec::Program& program, const HardwareLimits& limits) {
  const spec::MemoryBounds bounds{program.dram_bytes(), limits.sram_bytes, limits.acc_entries};
  for (int s = 0; s < program.steps_size(); ++s) {
    if (!program.steps(s).has_npu()) continue;
    const spec::NpuRun& run = program.steps(s).npu();
    TokenCounts tokens{};  // tokens never cross runs
    for (uint64_t i = run.first_instruction();
         i < run.first_instruction() + uint64_t{run.instruction_count()}; ++i) {
      NPU_TRY(CheckInstruction(program, bounds, i, tokens)
                  .WithContext(fmt::format("step {}: instruction {}", s, i)));
    }
  }
  return Status::Ok();
}

Status CheckProgram(const spec::Program& program, const HardwareLimits& limits) {
  NPU_TRY(CheckProgramLayout(program, limits.dram_bytes));
  return CheckInstructions(program, limits);
}

}  // namespace npu::fw
