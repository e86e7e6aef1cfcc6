// The DRAM device a config describes: dram.standard's JEDEC parameters (dram_standards.cc, with
// sources) with dram.device's overrides applied. Timings are in cycles of the DRAM command clock
// (tck_fs): the controller runs on that clock and converts to NPU cycles only at its interface,
// because a DDR4-3200 burst lasts 2.5 NPU cycles at 1 GHz and rounding each one would lose a
// sixth of the bandwidth.
#pragma once

#include <cstdint>

#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::spec {

struct DramDevice {
  uint32_t channels = 1;
  uint32_t bus_width_bits = 64;
  uint32_t burst_length = 8;
  uint32_t burst_ck = 4;
  uint32_t banks = 16;
  uint32_t bank_groups = 4;
  uint32_t page_bytes = 8192;
  uint64_t tck_fs = 625'000;
  uint32_t cl = 0, cwl = 0, rcd = 0, rp = 0, ras = 0, rtp = 0, wr = 0;
  uint32_t ccd_s = 0, ccd_l = 0, rrd_s = 0, rrd_l = 0, faw = 0;
  uint32_t wtr_s = 0, wtr_l = 0, rtw = 0, rfc = 0, refi = 0;

  // Bytes one column command moves: the access granularity.
  uint32_t BurstBytes() const { return bus_width_bits / 8 * burst_length; }
  uint32_t BanksPerGroup() const { return banks / bank_groups; }
};

// IDEAL when dram.standard is unset or IDEAL: the bus of bytes_per_cycle and latency_cycles.
bool IsIdealDram(const NpuConfig& config);

// The standard's parameters with dram.device's overrides. Meaningless for IDEAL.
DramDevice ResolveDramDevice(const NpuConfig& config);

// The rules a device must satisfy to be buildable and to have a schedule at all; the error names
// the dram.device field, its value and the rule. Ok for IDEAL.
Status ValidateDramDevice(const NpuConfig& config);

// Peak data bandwidth of all channels together, in bytes per NPU cycle.
double DramPeakBytesPerCycle(const NpuConfig& config);
// The fewest NPU cycles `bytes` can take at that peak (IDEAL: ceil(bytes / bytes_per_cycle)).
uint64_t DramPeakCycles(const NpuConfig& config, uint64_t bytes);

}  // namespace npu::spec
