// ValidateDramDevice(): a device the controller can build (geometry) and schedule (timings that
// do not contradict each other). Errors name the dram.device field even when the value came from
// the standard's preset, since that is the field to set to fix it.
#include <fmt/format.h>

#include "hw/spec/dram_device.h"

namespace npu::spec {
namespace {

Status Field(std::string_view name, uint64_t value, uint64_t lo, uint64_t hi) {
  if (value >= lo && value <= hi) return Status::Ok();
  return InvalidArgument(
      fmt::format("dram.device.{} = {}: must be between {} and {}", name, value, lo, hi));
}

Status AtLeast(std::string_view name, uint64_t value, std::string_view other, uint64_t bound,
               std::string_view why) {
  if (value >= bound) return Status::Ok();
  return InvalidArgument(fmt::format("dram.device.{} = {}: must be at least {} = {} ({})", name,
                                     value, other, bound, why));
}

Status ValidateGeometry(const DramDevice& d) {
  if (auto s = Field("channels", d.channels, 1, 64); !s.ok()) return s;
  if (auto s = Field("bus_width_bits", d.bus_width_bits, 8, 1024); !s.ok()) return s;
  if (d.bus_width_bits % 8 != 0) {
    return InvalidArgument(
        fmt::format("dram.device.bus_width_bits = {}: must be a multiple of 8", d.bus_width_bits));
  }
  if (auto s = Field("burst_length", d.burst_length, 1, 64); !s.ok()) return s;
  if (auto s = Field("burst_ck", d.burst_ck, 1, 64); !s.ok()) return s;
  if (auto s = Field("banks", d.banks, 1, 256); !s.ok()) return s;
  if (auto s = Field("bank_groups", d.bank_groups, 1, d.banks); !s.ok()) return s;
  if (d.banks % d.bank_groups != 0) {
    return InvalidArgument(fmt::format(
        "dram.device.bank_groups = {}: must divide banks = {} (every group has as many banks)",
        d.bank_groups, d.banks));
  }
  if (d.page_bytes == 0 || d.page_bytes % d.BurstBytes() != 0) {
    return InvalidArgument(fmt::format(
        "dram.device.page_bytes = {}: must be a non-zero multiple of one burst, bus_width_bits / "
        "8 x burst_length = {} bytes",
        d.page_bytes, d.BurstBytes()));
  }
  if (d.tck_fs < 100'000 || d.tck_fs > 100'000'000) {
    return InvalidArgument(fmt::format("dram.device.tck_ps = {}: must be between 100 and 100000",
                                       static_cast<double>(d.tck_fs) / 1000));
  }
  return Status::Ok();
}

Status ValidateTimings(const DramDevice& d) {
  constexpr uint64_t kMax = 1'000'000;
  const std::pair<std::string_view, uint32_t> positive[] = {
      {"cl_ck", d.cl},       {"cwl_ck", d.cwl},     {"rcd_ck", d.rcd}, {"rp_ck", d.rp},
      {"ccd_s_ck", d.ccd_s}, {"rrd_s_ck", d.rrd_s}, {"rfc_ck", d.rfc}, {"refi_ck", d.refi}};
  for (const auto& [name, value] : positive) {
    if (auto s = Field(name, value, 1, kMax); !s.ok()) return s;
  }
  const std::pair<std::string_view, uint32_t> any[] = {
      {"rtp_ck", d.rtp}, {"wr_ck", d.wr}, {"wtr_s_ck", d.wtr_s}, {"rtw_ck", d.rtw}};
  for (const auto& [name, value] : any) {
    if (auto s = Field(name, value, 0, kMax); !s.ok()) return s;
  }
  if (auto s = AtLeast("ras_ck", d.ras, "rcd_ck", d.rcd, "a row stays open until it is read");
      !s.ok()) {
    return s;
  }
  if (auto s = AtLeast("ccd_l_ck", d.ccd_l, "ccd_s_ck", d.ccd_s, "same group is never faster");
      !s.ok()) {
    return s;
  }
  if (auto s = AtLeast("rrd_l_ck", d.rrd_l, "rrd_s_ck", d.rrd_s, "same group is never faster");
      !s.ok()) {
    return s;
  }
  if (auto s = AtLeast("wtr_l_ck", d.wtr_l, "wtr_s_ck", d.wtr_s, "same group is never faster");
      !s.ok()) {
    return s;
  }
  if (auto s = AtLeast("faw_ck", d.faw, "rrd_s_ck", d.rrd_s, "the window holds two ACTs at least");
      !s.ok()) {
    return s;
  }
  if (d.refi <= d.rfc + d.rp) {
    return InvalidArgument(fmt::format(
        "dram.device.refi_ck = {}: must exceed rfc_ck + rp_ck = {} (else refresh leaves no time "
        "for accesses)",
        d.refi, d.rfc + d.rp));
  }
  if (auto s = Field("ccd_l_ck", d.ccd_l, 1, kMax); !s.ok()) return s;
  if (auto s = Field("ras_ck", d.ras, 1, kMax); !s.ok()) return s;
  if (auto s = Field("rrd_l_ck", d.rrd_l, 1, kMax); !s.ok()) return s;
  if (auto s = Field("wtr_l_ck", d.wtr_l, 0, kMax); !s.ok()) return s;
  return Field("faw_ck", d.faw, 1, kMax);
}

}  // namespace

Status ValidateDramDevice(const NpuConfig& config) {
  if (IsIdealDram(config)) return Status::Ok();
  const DramDevice d = ResolveDramDevice(config);
  if (auto s = ValidateGeometry(d); !s.ok()) return s;
  return ValidateTimings(d);
}

}  // namespace npu::spec
