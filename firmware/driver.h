// The NPU driver that runs on the control core: checks and places a binary in DRAM, writes
// inputs, programs a run through the registers, sleeps until the completion interrupt, and reads
// the counters and outputs back. Everything goes through the Bus; nothing here knows SystemC.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "firmware/bus.h"
#include "firmware/program_check.h"
#include "hw/spec/binary.h"
#include "hw/spec/regs.h"
#include "hw/spec/status.h"

namespace npu::fw {

using Counters = std::array<uint64_t, spec::regs::kNumCounters>;

// When one step of the program ran, on the NPU's TIMER (NPU cycles since reset): an NPU run
// from its doorbell to its completion, a CPU op from its first read to its last write.
struct StepTiming {
  uint64_t begin_cycle = 0, end_cycle = 0;
};

// What one inference did: the NPU's counters summed over its runs, and every step's timing.
struct RunLog {
  Counters counters{};
  std::vector<StepTiming> steps;
};

// What Load checks before it copies anything. kLayoutOnly hands the NPU instructions unchecked:
// only for tests of the hardware's own fault detection, which need bad instructions to reach it.
enum class LoadChecks { kAll, kLayoutOnly };

class Driver {
 public:
  // `dram_bytes`: the DRAM the board has at spec::kDramBase.
  Driver(Bus& bus, uint64_t dram_bytes, LoadChecks checks = LoadChecks::kAll)
      : bus_(bus), checks_(checks) {
    limits_.dram_bytes = dram_bytes;
  }

  // Checks the NPU answers with the expected ID and register version, and reads its SRAM and
  // accumulator buffer sizes.
  Status Probe();
  // Opens the binary (envelope, version, checksum), checks it was built for this NPU's
  // architecture and passes every check of firmware/program_check.h, then copies instructions
  // and constants to DRAM. Call Probe first.
  Status Load(std::string_view binary_bytes);
  const spec::Program& program() const { return program_; }
  // Writes input `index` (bytes in the tensor's layout) to its place in DRAM.
  Status WriteInput(size_t index, const std::vector<int8_t>& data);
  // Runs the program's steps in order: an NPU run is programmed through the registers, started
  // with the doorbell and waited for (interrupt); a CPU op runs on this core (firmware/cpu).
  Status Run(RunLog& log);
  StatusOr<std::vector<int8_t>> ReadOutput(size_t index);

 private:
  Status CheckArchitecture();
  Status RunNpu(const spec::NpuRun& run, RunLog& log);
  StatusOr<uint64_t> ReadTimer();
  Status WriteReg(uint32_t offset, uint32_t value);
  StatusOr<uint32_t> ReadReg(uint32_t offset);
  Status ReadCounters(Counters& counters);
  uint64_t ImageAddress(uint32_t offset) const;

  Bus& bus_;
  LoadChecks checks_;
  HardwareLimits limits_;
  spec::Program program_;
  bool loaded_ = false;
};

}  // namespace npu::fw
