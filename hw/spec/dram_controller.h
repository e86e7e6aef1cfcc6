// The DRAM controller's timing: the one rule both the platform's DRAM model (hw/dram, a thin
// SystemC adapter) and the compiler's event replay (compiler/cost) call, so both see the same
// cycle for every request made in the same order.
//
// IDEAL (the default): one data bus of dram.bytes_per_cycle; a request of N bytes made at cycle t
// completes at max(t + latency_cycles, bus free) + ceil(N / bytes_per_cycle), in arrival order.
//
// A JEDEC standard: a request reaches the controller latency_cycles after it is made (the
// interconnect, controller pipeline and PHY), is cut into the device's bursts (every burst-aligned
// block it touches: a transfer smaller than a burst costs a whole burst), each burst is mapped to
// a channel, bank group, bank and row, and each channel (dram_channel.h) schedules its commands.
// The request completes when its last burst's data has crossed the bus. Address mapping, from the
// least significant bits: byte in burst, channel, bank group, column, bank, row. Consecutive bursts
// alternate channels and then bank groups, so a stream is paced by tCCD_S, not tCCD_L, and stays
// in one row per bank for page_bytes x channels x bank_groups bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/spec/dram_channel.h"
#include "hw/spec/dram_device.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::spec {

class DramController {
 public:
  explicit DramController(const NpuConfig& config);
  DramController(const DramController&) = delete;
  DramController& operator=(const DramController&) = delete;

  // A request for `bytes` at DRAM offset `addr`, made at NPU cycle `cycle`: the NPU cycle after
  // its last byte has crossed the data bus. Requests must be made in the order they are served.
  uint64_t Access(uint64_t cycle, uint64_t addr, uint64_t bytes, bool write);

  const DramStats& stats() const { return sink_.stats; }
  bool ideal() const { return ideal_; }
  // Records every command the channels issue into `trace` (null: stop).
  void set_trace(std::vector<DramCommand>* trace) { sink_.trace = trace; }

  // NPU cycles <-> command-clock ticks, rounding up (a tick or cycle partly used is spent).
  int64_t ToTicks(uint64_t cycle) const;
  uint64_t ToCycles(int64_t tick) const;

 private:
  struct Location {
    uint32_t channel, group, bank;
    uint64_t row;
  };
  uint64_t Ideal(uint64_t cycle, uint64_t bytes);
  Location Map(uint64_t burst_index) const;

  const NpuConfig& config_;
  bool ideal_;
  uint64_t latency_cycles_;
  DramDevice device_;
  uint64_t npu_period_fs_;
  DramSink sink_;
  std::vector<DramChannel> channels_;
  uint64_t bus_free_ = 0;  // IDEAL
};

}  // namespace npu::spec
