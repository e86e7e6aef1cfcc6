// The JEDEC presets behind dram.standard, and dram.device's overrides on top of them.
// Sources (docs/timing-fidelity.md, "DRAM standards", lists them with the derived figures):
//   DDR4_3200   JESD79-4 speed bin DDR4-3200AA (22-22-22) for 8Gb x8 devices, as tabulated in
//               DRAMsim3 configs/DDR4_8Gb_x8_3200.ini and Ramulator 2 DDR4_3200AA; tRFC1 350 ns,
//               tREFI 7.8 us.
//   LPDDR4_4266 JESD209-4 at tCK 0.46875 ns: RL 36, WL 18 (set A), tRCD/tRPpb 18 ns, tRAS 42 ns,
//               tRRD 10 ns, tFAW 40 ns, tWTR 10 ns, tRTP 7.5 ns, tWR 18 ns, tRFCab 280 ns (8Gb
//               channel), tREFI 3.904 us (Ramulator's LPDDR4 tables give the same per-ns values).
//   LPDDR5_6400 Ramulator 2 LPDDR5_6400 preset (JESD209-5, CK 800 MHz, WCK:CK 4:1, bank-group
//               mode): RL 20, WL 11, tRCD 15, tRPpb 15, tRAS 34, tRRD 4, tFAW 16, tWTR_S/L 5/10,
//               tWR 28; a BL16 burst takes 2 CK on the data bus; tRFCab 210 ns (8Gb), tREFI 3.906
//               us.
//   HBM2        JESD235 pseudo-channel mode at 2 Gb/s per pin (tCK 1 ns), timings from DRAMsim3
//               configs/HBM2_8Gb_x128.ini (CL 14, tRCD 14, tRP 14, tRAS 34, tRRD_S/L 4/6, tFAW 30,
//               tWTR_S/L 6/8, tWR 16); tRFC 350 ns (8Gb, Ramulator 2), tREFI 3.9 us.
// Read-to-write spacing is CL + burst + 2 - CWL for every standard (one cycle of bus turnaround
// and one of write preamble), as Ramulator derives it.
#include <algorithm>
#include <cmath>

#include "hw/spec/dram_device.h"

namespace npu::spec {
namespace {

DramDevice Ddr4_3200() {
  DramDevice d{.channels = 1,
               .bus_width_bits = 64,
               .burst_length = 8,
               .burst_ck = 4,
               .banks = 16,
               .bank_groups = 4,
               .page_bytes = 8192,
               .tck_fs = 625'000};
  d.cl = 22, d.cwl = 16, d.rcd = 22, d.rp = 22, d.ras = 52, d.rtp = 12, d.wr = 24;
  d.ccd_s = 4, d.ccd_l = 8, d.rrd_s = 4, d.rrd_l = 8, d.faw = 34;
  d.wtr_s = 4, d.wtr_l = 12, d.rfc = 560, d.refi = 12480;
  return d;
}

DramDevice Lpddr4_4266() {
  DramDevice d{.channels = 4,
               .bus_width_bits = 16,
               .burst_length = 16,
               .burst_ck = 8,
               .banks = 8,
               .bank_groups = 1,
               .page_bytes = 2048,
               .tck_fs = 468'750};
  d.cl = 36, d.cwl = 18, d.rcd = 39, d.rp = 39, d.ras = 90, d.rtp = 16, d.wr = 39;
  d.ccd_s = 8, d.ccd_l = 8, d.rrd_s = 22, d.rrd_l = 22, d.faw = 86;
  d.wtr_s = 22, d.wtr_l = 22, d.rfc = 598, d.refi = 8328;
  return d;
}

DramDevice Lpddr5_6400() {
  DramDevice d{.channels = 4,
               .bus_width_bits = 16,
               .burst_length = 16,
               .burst_ck = 2,
               .banks = 16,
               .bank_groups = 4,
               .page_bytes = 2048,
               .tck_fs = 1'250'000};
  d.cl = 20, d.cwl = 11, d.rcd = 15, d.rp = 15, d.ras = 34, d.rtp = 4, d.wr = 28;
  d.ccd_s = 2, d.ccd_l = 4, d.rrd_s = 4, d.rrd_l = 4, d.faw = 16;
  d.wtr_s = 5, d.wtr_l = 10, d.rfc = 168, d.refi = 3124;
  return d;
}

DramDevice Hbm2() {
  DramDevice d{.channels = 16,
               .bus_width_bits = 64,
               .burst_length = 4,
               .burst_ck = 2,
               .banks = 16,
               .bank_groups = 4,
               .page_bytes = 1024,
               .tck_fs = 1'000'000};
  d.cl = 14, d.cwl = 4, d.rcd = 14, d.rp = 14, d.ras = 34, d.rtp = 4, d.wr = 16;
  d.ccd_s = 2, d.ccd_l = 4, d.rrd_s = 4, d.rrd_l = 6, d.faw = 30;
  d.wtr_s = 6, d.wtr_l = 8, d.rfc = 350, d.refi = 3900;
  return d;
}

DramDevice Preset(DramStandard standard) {
  switch (standard) {
    case LPDDR4_4266:
      return Lpddr4_4266();
    case LPDDR5_6400:
      return Lpddr5_6400();
    case HBM2:
      return Hbm2();
    default:
      return Ddr4_3200();
  }
}

// Every set field of dram.device replaces the preset's value.
void ApplyOverrides(const DramDeviceConfig& o, DramDevice& d) {
  auto set = [](bool has, uint32_t value, uint32_t& field) {
    if (has) field = value;
  };
  set(o.has_channels(), o.channels(), d.channels);
  set(o.has_bus_width_bits(), o.bus_width_bits(), d.bus_width_bits);
  set(o.has_burst_length(), o.burst_length(), d.burst_length);
  set(o.has_burst_ck(), o.burst_ck(), d.burst_ck);
  set(o.has_banks(), o.banks(), d.banks);
  set(o.has_bank_groups(), o.bank_groups(), d.bank_groups);
  set(o.has_page_bytes(), o.page_bytes(), d.page_bytes);
  if (o.has_tck_ps()) d.tck_fs = static_cast<uint64_t>(std::llround(o.tck_ps() * 1000));
  set(o.has_cl_ck(), o.cl_ck(), d.cl);
  set(o.has_cwl_ck(), o.cwl_ck(), d.cwl);
  set(o.has_rcd_ck(), o.rcd_ck(), d.rcd);
  set(o.has_rp_ck(), o.rp_ck(), d.rp);
  set(o.has_ras_ck(), o.ras_ck(), d.ras);
  set(o.has_rtp_ck(), o.rtp_ck(), d.rtp);
  set(o.has_wr_ck(), o.wr_ck(), d.wr);
  set(o.has_ccd_s_ck(), o.ccd_s_ck(), d.ccd_s);
  set(o.has_ccd_l_ck(), o.ccd_l_ck(), d.ccd_l);
  set(o.has_rrd_s_ck(), o.rrd_s_ck(), d.rrd_s);
  set(o.has_rrd_l_ck(), o.rrd_l_ck(), d.rrd_l);
  set(o.has_faw_ck(), o.faw_ck(), d.faw);
  set(o.has_wtr_s_ck(), o.wtr_s_ck(), d.wtr_s);
  set(o.has_wtr_l_ck(), o.wtr_l_ck(), d.wtr_l);
  set(o.has_rfc_ck(), o.rfc_ck(), d.rfc);
  set(o.has_refi_ck(), o.refi_ck(), d.refi);
}

}  // namespace

bool IsIdealDram(const NpuConfig& config) {
  const DramStandard s = config.dram().standard();
  return s == DRAM_STANDARD_UNSPECIFIED || s == IDEAL;
}

DramDevice ResolveDramDevice(const NpuConfig& config) {
  DramDevice d = Preset(config.dram().standard());
  ApplyOverrides(config.dram().device(), d);
  const uint32_t read_to_write = d.cl + d.burst_ck + 2;
  d.rtw = config.dram().device().has_rtw_ck() ? config.dram().device().rtw_ck()
                                              : read_to_write - std::min(d.cwl, read_to_write);
  return d;
}

double DramPeakBytesPerCycle(const NpuConfig& config) {
  if (IsIdealDram(config)) return config.dram().bytes_per_cycle();
  const DramDevice d = ResolveDramDevice(config);
  const double npu_period_fs = 1e9 / config.clock_mhz();
  const double burst_fs = static_cast<double>(d.burst_ck) * static_cast<double>(d.tck_fs);
  return d.channels * d.BurstBytes() * npu_period_fs / burst_fs;
}

uint64_t DramPeakCycles(const NpuConfig& config, uint64_t bytes) {
  if (IsIdealDram(config)) {
    return (bytes + config.dram().bytes_per_cycle() - 1) / config.dram().bytes_per_cycle();
  }
  return static_cast<uint64_t>(
      std::ceil(static_cast<double>(bytes) / DramPeakBytesPerCycle(config)));
}

}  // namespace npu::spec
