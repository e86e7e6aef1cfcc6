// ProgramBuilder.
#include "tests/common/program_builder.h"

#include <algorithm>

#include "hw/spec/binary.h"
#include "hw/spec/status.h"

namespace npu::testing {

namespace {
constexpr uint32_t kInstructionOffset = 0;
constexpr uint32_t kDataStart = 1 << 20;  // tests place data at or above 1 MiB
}  // namespace

ProgramBuilder::ProgramBuilder(const spec::NpuConfig& config) {
  spec::SetArchitecture(program_, config);
  program_.set_model_name("hand-built");
  program_.set_instruction_offset(kInstructionOffset);
  program_.set_dram_bytes(kDataStart);
}

ProgramBuilder& ProgramBuilder::Add(const spec::Instruction& insn) {
  StatusOr<spec::InsnWord> word = spec::Encode(insn);
  NPU_CHECK(word.ok());
  words_.push_back(*word);
  return *this;
}

ProgramBuilder& ProgramBuilder::AddRaw(const spec::InsnWord& word) {
  words_.push_back(word);
  return *this;
}

ProgramBuilder& ProgramBuilder::Constant(uint32_t dram_offset, const std::vector<uint8_t>& bytes) {
  spec::Segment* s = program_.add_constants();
  s->set_name("constant");
  s->set_dram_offset(dram_offset);
  s->set_data(std::string(bytes.begin(), bytes.end()));
  program_.set_dram_bytes(std::max<uint32_t>(program_.dram_bytes(), dram_offset + bytes.size()));
  return *this;
}

ProgramBuilder& ProgramBuilder::Input(uint32_t dram_offset, uint32_t bytes) {
  AddTensor(*program_.add_inputs(), "input", dram_offset, bytes);
  return *this;
}

ProgramBuilder& ProgramBuilder::Output(uint32_t dram_offset, uint32_t bytes) {
  AddTensor(*program_.add_outputs(), "output", dram_offset, bytes);
  return *this;
}

void ProgramBuilder::AddTensor(spec::TensorDesc& t, const char* name, uint32_t dram_offset,
                               uint32_t bytes) {
  t.set_name(name);
  t.add_shape(bytes);
  t.set_dtype(spec::INT8);
  t.set_dram_offset(dram_offset);
  t.set_size_bytes(bytes);
  program_.set_dram_bytes(std::max<uint32_t>(program_.dram_bytes(), dram_offset + bytes));
}

spec::Program ProgramBuilder::Build() const {
  spec::Program p = program_;
  std::string words;
  for (const spec::InsnWord& w : words_) {
    words.append(reinterpret_cast<const char*>(w.data()), w.size());
  }
  p.set_instructions(words);
  spec::SetSingleNpuRun(p);
  NPU_CHECK(words.size() <= kDataStart);
  return p;
}

spec::Instruction Load(uint32_t dram_offset, uint32_t sram_addr, uint32_t bytes, uint8_t wait,
                       uint8_t signal) {
  spec::DmaArgs d;
  d.dram_offset = dram_offset;
  d.sram_addr = sram_addr;
  d.run_bytes = bytes;
  return {spec::Opcode::kLoad, wait, signal, d};
}

spec::Instruction Store(uint32_t sram_addr, uint32_t dram_offset, uint32_t bytes, uint8_t wait,
                        uint8_t signal) {
  spec::DmaArgs d;
  d.dram_offset = dram_offset;
  d.sram_addr = sram_addr;
  d.run_bytes = bytes;
  return {spec::Opcode::kStore, wait, signal, d};
}

}  // namespace npu::testing
