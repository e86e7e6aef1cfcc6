// A functional executor for compiled programs, in plain C++: byte arrays for DRAM, SRAM and the
// accumulator; DMA copies burst by burst (spec::SplitIntoBursts, each burst's SRAM bytes where
// spec::BurstSramAccess and hw/spec/sram_words.h put them), the units' instructions through
// hw/spec/semantics.h (spec::ComputeConv, ComputeAct, ComputePool, ComputeEltwise, ComputeLut)
// and hw/spec/resize.h (spec::ComputeResize).
// No timing. It runs the program's steps in order: each NPU run's decoded instruction words
// either in stream order or in a random order that only the tokens constrain (so a missing
// dependency shows up as a wrong result), each CPU op through the runner it was given (tests
// pass the firmware's kernels; the compiler does not link firmware).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "hw/spec/binary.pb.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler::sim {

// Runs one CPU op over the image (DRAM from DRAM_BASE).
using CpuOpRunner = std::function<Status(const spec::CpuOp& op, std::vector<uint8_t>& dram)>;

class FunctionalExecutor {
 public:
  explicit FunctionalExecutor(const spec::NpuConfig& config, CpuOpRunner cpu = nullptr);

  // Sizes DRAM to the program, copies its constants, decodes its instructions.
  Status Load(const spec::Program& program);
  Status WriteInput(std::span<const int8_t> input);  // the first input
  // One buffer per program input, in order.
  Status WriteInputs(const std::vector<std::vector<int8_t>>& inputs);
  // seed 0: stream order (each wait must find its token already given). Otherwise: at each step
  // a random queue whose head holds all its tokens runs its head.
  Status Run(uint32_t seed = 0);
  std::vector<int8_t> ReadOutput() const;  // the first output
  std::vector<std::vector<int8_t>> ReadOutputs() const;
  uint64_t executed() const { return executed_; }

 private:
  Status WriteTensor(const spec::TensorDesc& tensor, std::span<const int8_t> data);
  Status RunNpu(const spec::NpuRun& run, uint32_t seed);
  Status Execute(size_t index);
  Status Dma(const spec::Instruction& insn);
  Status Conv(const spec::ConvArgs& conv);
  Status Act(const spec::ActArgs& act);
  Status Pool(const spec::PoolArgs& pool);
  Status Eltwise(const spec::EltwiseArgs& eltwise);
  Status Lut(const spec::LutArgs& lut);
  Status Resize(const spec::ResizeArgs& resize);
  Status DwConv(const spec::DwConvArgs& dw);
  Status Lnorm(const spec::LnormArgs& lnorm);
  const int8_t* Sram() const { return reinterpret_cast<const int8_t*>(sram_.data()); }
  // Reads `pixels` runs of `channels` bytes, `stride` apart, from `addr` into dense `in`.
  void ReadPixels(uint64_t addr, std::vector<int8_t>& in, uint64_t pixels, uint64_t channels,
                  uint64_t stride) const;
  // Writes `pixels` runs of `channels` bytes from dense `out`, `stride` apart, at `addr`.
  void WritePixels(uint64_t addr, const std::vector<int8_t>& out, uint64_t pixels,
                   uint64_t channels, uint64_t stride);

  spec::NpuConfig config_;
  CpuOpRunner cpu_;
  spec::Program program_;
  std::vector<spec::Instruction> insns_;
  std::vector<uint8_t> dram_, sram_;
  std::vector<int32_t> acc_;
  uint64_t executed_ = 0;
};

}  // namespace npu::compiler::sim
