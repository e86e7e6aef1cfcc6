// Validate(): one rule per field, each error naming the field, its value and the rule.
// docs/config.md lists the same rules for users.
#include <fmt/format.h>

#include <cstdint>

#include "hw/spec/config.h"
#include "hw/spec/cpu_model.h"
#include "hw/spec/dram_device.h"
#include "hw/spec/isa.h"
#include "hw/spec/tech_model.h"
#include "hw/spec/utf8.h"

namespace npu::spec {
namespace {

Status Range(std::string_view field, uint64_t value, uint64_t lo, uint64_t hi) {
  if (value >= lo && value <= hi) return Status::Ok();
  return InvalidArgument(fmt::format("{} = {}: must be between {} and {}", field, value, lo, hi));
}

Status ValidateMac(const MacArrayConfig& mac) {
  if (auto s = Range("mac.rows", mac.rows(), 1, 1024); !s.ok()) return s;
  if (auto s = Range("mac.cols", mac.cols(), 1, 1024); !s.ok()) return s;
  if (mac.dataflow() != WEIGHT_STATIONARY && mac.dataflow() != OUTPUT_STATIONARY) {
    return InvalidArgument(
        fmt::format("mac.dataflow = {}: must be WEIGHT_STATIONARY or "
                    "OUTPUT_STATIONARY",
                    Dataflow_Name(mac.dataflow())));
  }
  // Every pipelining suits both dataflows (hw/rtl builds all six PEs); an unset or unknown value
  // names the field.
  if (mac.fold_pipelining() != DOUBLE_BUFFERED && mac.fold_pipelining() != SINGLE_BUFFERED &&
      mac.fold_pipelining() != NONE) {
    return InvalidArgument(fmt::format(
        "mac.fold_pipelining = {}: must be DOUBLE_BUFFERED, SINGLE_BUFFERED or NONE",
        FoldPipelining_IsValid(mac.fold_pipelining()) ? FoldPipelining_Name(mac.fold_pipelining())
                                                      : std::to_string(mac.fold_pipelining())));
  }
  if (mac.int4_weight_rate() != 1 && mac.int4_weight_rate() != 2) {
    return InvalidArgument(
        fmt::format("mac.int4_weight_rate = {}: must be 1 or 2 (int4 products per PE per cycle)",
                    mac.int4_weight_rate()));
  }
  if (mac.fp16_mac_cycles() != 1 && mac.fp16_mac_cycles() != 2 && mac.fp16_mac_cycles() != 4) {
    return InvalidArgument(
        fmt::format("mac.fp16_mac_cycles = {}: must be 1, 2 or 4 (cycles a PE takes per FP16 MAC)",
                    mac.fp16_mac_cycles()));
  }
  if (mac.row_groups() < 1 || mac.row_groups() > 16 || mac.row_groups() > mac.rows()) {
    return InvalidArgument(fmt::format(
        "mac.row_groups = {}: must be 1 to 16 and at most mac.rows ({}) (copies of a short "
        "reduction's weights in the array's rows)",
        mac.row_groups(), mac.rows()));
  }
  if (mac.col_groups() < 1 || mac.col_groups() > 16 || mac.cols() % mac.col_groups() != 0) {
    return InvalidArgument(fmt::format(
        "mac.col_groups = {}: must be 1 to 16 and divide mac.cols ({}) (equal column groups, "
        "each with its own input injection point)",
        mac.col_groups(), mac.cols()));
  }
  // Two accumulator tiles of one full fold each, so the vector unit can drain one while the
  // MAC array fills the other.
  const uint64_t min_acc = 2ull * mac.rows() * mac.cols() * 4;
  if (auto s =
          Range("mac.acc_buffer_bytes", mac.acc_buffer_bytes(), min_acc, uint64_t{kAccEntries} * 4);
      !s.ok()) {
    return InvalidArgument(s.message() +
                           " (two rows x cols int32 tiles; at most the 20-bit accumulator space)");
  }
  if (mac.acc_buffer_bytes() % 4 != 0) {
    return InvalidArgument(fmt::format("mac.acc_buffer_bytes = {}: must be a multiple of 4 (int32)",
                                       mac.acc_buffer_bytes()));
  }
  return Status::Ok();
}

Status ValidateSram(const NpuConfig& c) {
  const SramConfig& sram = c.sram();
  if (auto s = Range("sram.banks", sram.banks(), 1, 256); !s.ok()) return s;
  if (auto s = Range("sram.bank_width_bytes", sram.bank_width_bytes(), 1, 1024); !s.ok()) return s;
  if (auto s = Range("sram.size_bytes", sram.size_bytes(), 1, kSramAddressSpace); !s.ok()) return s;
  const uint64_t stripe = uint64_t{sram.banks()} * sram.bank_width_bytes();
  if (sram.size_bytes() % stripe != 0) {
    return InvalidArgument(
        fmt::format("sram.size_bytes = {}: must be a multiple of banks x "
                    "bank_width_bytes = {} so every bank has the same depth",
                    sram.size_bytes(), stripe));
  }
  const uint64_t minimal = MinimalSramBytes(c);
  if (sram.size_bytes() < minimal) {
    return InvalidArgument(fmt::format(
        "sram.size_bytes = {}: smaller than one minimal double-buffered tile ({} bytes: 2 x (rows "
        "x cols weights + rows inputs + cols outputs + 12 x cols parameters))",
        sram.size_bytes(), minimal));
  }
  return Status::Ok();
}

Status ValidateRest(const NpuConfig& c) {
  if (auto s = Range("clock_mhz", c.clock_mhz(), 1, 10000); !s.ok()) return s;
  if (auto s = Range("dma.load_channels", c.dma().load_channels(), 1, 16); !s.ok()) return s;
  if (auto s = Range("dma.store_channels", c.dma().store_channels(), 1, 16); !s.ok()) return s;
  if (auto s = Range("dma.burst_bytes", c.dma().burst_bytes(), 16, 65536); !s.ok()) return s;
  if (auto s = Range("dma.outstanding_bursts", c.dma().outstanding_bursts(), 1, 256); !s.ok()) {
    return s;
  }
  if (auto s = Range("dram.bytes_per_cycle", c.dram().bytes_per_cycle(), 1, 4096); !s.ok())
    return s;
  if (auto s = Range("dram.latency_cycles", c.dram().latency_cycles(), 0, 100000); !s.ok())
    return s;
  if (auto s = Range("dram.size_bytes", c.dram().size_bytes(), 1 << 20, uint64_t{1} << 32);
      !s.ok()) {
    return s;
  }
  if (auto s = ValidateDramDevice(c); !s.ok()) return s;
  if (auto s = Range("act.lanes", c.act().lanes(), 1, 4096); !s.ok()) return s;
  if (auto s = Range("act.fp16_element_cycles", c.act().fp16_element_cycles(), 1, 2); !s.ok()) {
    return s;
  }
  if (auto s = Range("act.depthwise_taps", c.act().depthwise_taps(), 0, 64); !s.ok()) return s;
  if (auto s = Range("act.norm_dividers", c.act().norm_dividers(), 0, 1024); !s.ok()) return s;
  if (auto s = Range("act.pipeline_cycles", c.act().pipeline_cycles(), 0, 1000); !s.ok()) return s;
  if (auto s = Range("cmd.queue_depth", c.cmd().queue_depth(), 1, 4096); !s.ok()) return s;
  if (auto s = Range("cmd.fetch_batch", c.cmd().fetch_batch(), 1, 1024); !s.ok()) return s;
  return Status::Ok();
}

Status ValidateCpu(const NpuConfig& c) {
  const CpuCosts costs = ResolveCpuCosts(c);
  if (auto s = Range("cpu.clock_mhz", costs.clock_mhz, 1, 10000); !s.ok()) return s;
  if (auto s = Range("cpu.op_overhead_cycles", costs.op_overhead_cycles, 0, 100'000'000); !s.ok()) {
    return s;
  }
  for (int w = 0; w < kNumCpuWork; ++w) {
    const double v = costs.cycles_per_unit[w];
    if (!(v >= 0 && v <= 1e6)) {
      return InvalidArgument(fmt::format("cpu: {} cost {}: must be between 0 and 1e6 cycles",
                                         CpuWorkName(static_cast<CpuWork>(w)), v));
    }
  }
  return Status::Ok();
}

// `value` within [lo, hi]; also false for NaN.
Status RangeReal(std::string_view field, double value, double lo, double hi,
                 std::string_view unit) {
  if (value >= lo && value <= hi) return Status::Ok();
  return InvalidArgument(
      fmt::format("{} = {}: must be between {} and {} {}", field, value, lo, hi, unit));
}

// The supply may range from near-threshold (half the nominal) to heavy overdrive (1.5 times).
Status ValidateTech(const NpuConfig& c) {
  const TechConfig& tech = c.tech();
  if (!TechNode_IsValid(tech.node())) {
    return InvalidArgument(fmt::format("tech.node = {}: not a known node", int(tech.node())));
  }
  const TechParams t = ResolveTech(c);
  if (auto s = RangeReal("tech.voltage_v", t.voltage_v, 0.5 * t.nominal_voltage_v,
                         1.5 * t.nominal_voltage_v, "V");
      !s.ok()) {
    return InvalidArgument(fmt::format("{} for {} (nominal {} V)", s.message(),
                                       TechNode_Name(t.node), t.nominal_voltage_v));
  }
  if (auto s = RangeReal("tech.dram_pj_per_byte", t.dram_pj_per_byte, 0, 1e5, "pJ"); !s.ok()) {
    return s;
  }
  return RangeReal("tech.leakage_mw_per_mm2", t.leakage_mw_per_mm2, 0, 1e4, "mW/mm^2");
}

}  // namespace

uint64_t MinimalSramBytes(const NpuConfig& c) {
  const uint64_t rows = c.mac().rows(), cols = c.mac().cols();
  return 2 * (rows * cols + rows + cols + 12 * cols);
}

Status Validate(const NpuConfig& config) {
  if (!IsValidUtf8(config.name())) {
    return InvalidArgument("name: must be UTF-8 text (a binary compiled for it would not load)");
  }
  if (auto s = ValidateMac(config.mac()); !s.ok()) return s;
  if (auto s = ValidateSram(config); !s.ok()) return s;
  if (auto s = ValidateRest(config); !s.ok()) return s;
  if (auto s = ValidateCpu(config); !s.ok()) return s;
  return ValidateTech(config);
}

}  // namespace npu::spec
