// A board for the in-process firmware targets, without SystemC: DRAM of the config's size at
// DRAM_BASE, kept as pages allocated on first write (a fuzzed binary may place data anywhere in
// a gigabyte), and the NPU's identification and size registers, which are all the driver's Probe()
// and Load() read. Anything else on the register bus answers with a bus error: the in-process
// targets never start the NPU (platform_fuzzer.cc runs programs on the real model).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "firmware/bus.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::fuzz {

// The architecture of the firmware and platform targets' board, which their seed programs were
// compiled for: the default with 16 MiB of DRAM, so that a fuzzed CPU op touches at most that.
spec::NpuConfig FuzzBoardConfig();

// `program` as a binary for that board: the architecture fingerprint set to the board's, then
// sealed with a valid checksum, so that mutations of the program reach the deep checks.
std::string SealForBoard(spec::Program program);

class FuzzBoard : public fw::Bus {
 public:
  explicit FuzzBoard(const spec::NpuConfig& config);

  uint64_t dram_bytes() const { return dram_bytes_; }

  bool Read32(uint64_t addr, uint32_t& value) override;
  bool Write32(uint64_t addr, uint32_t value) override;
  bool ReadBlock(uint64_t addr, uint8_t* data, size_t bytes) override;
  bool WriteBlock(uint64_t addr, const uint8_t* data, size_t bytes) override;
  // Never called: nothing here starts the NPU, so no interrupt can come.
  void WaitForInterrupt() override;
  void Compute(std::span<const spec::CpuWorkItem> work) override {}

 private:
  static constexpr uint64_t kPageBytes = 4096;
  using Page = std::array<uint8_t, kPageBytes>;

  bool InsideDram(uint64_t addr, size_t bytes) const;
  Page& PageForWrite(uint64_t page_index);

  spec::NpuConfig config_;  // the NPU its identification registers describe
  uint64_t fingerprint_;
  uint64_t dram_bytes_;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;  // by (address - DRAM_BASE) / page
};

}  // namespace npu::fuzz
