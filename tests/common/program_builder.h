// Hand-built programs for hardware and firmware tests: instructions and data placed by the test,
// not by the compiler, so a test pins down exactly what the hardware is asked to do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "hw/spec/isa.h"

namespace npu::testing {

class ProgramBuilder {
 public:
  explicit ProgramBuilder(const spec::NpuConfig& config);

  ProgramBuilder& Add(const spec::Instruction& insn);
  // A word as is, even one the encoder would refuse.
  ProgramBuilder& AddRaw(const spec::InsnWord& word);
  // Constant bytes at `dram_offset` (from DRAM_BASE).
  ProgramBuilder& Constant(uint32_t dram_offset, const std::vector<uint8_t>& bytes);
  ProgramBuilder& Input(uint32_t dram_offset, uint32_t bytes);
  ProgramBuilder& Output(uint32_t dram_offset, uint32_t bytes);

  spec::Program Build() const;
  std::string Sealed() const { return spec::SealProgram(Build()); }

 private:
  void AddTensor(spec::TensorDesc& t, const char* name, uint32_t dram_offset, uint32_t bytes);

  spec::Program program_;
  std::vector<spec::InsnWord> words_;
};

spec::Instruction Load(uint32_t dram_offset, uint32_t sram_addr, uint32_t bytes, uint8_t wait = 0,
                       uint8_t signal = 0);
spec::Instruction Store(uint32_t sram_addr, uint32_t dram_offset, uint32_t bytes, uint8_t wait = 0,
                        uint8_t signal = 0);
inline constexpr uint8_t kL = 1, kC = 2, kV = 4, kS = 8;  // token mask bits

}  // namespace npu::testing
