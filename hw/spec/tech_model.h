// The process technology the energy and area models assume: a preset per node (supply voltage,
// how energy and area scale from 45 nm, where the published per-event figures come from) and
// the config's explicit overrides. docs/energy-area.md states the scaling rules and sources.
#pragma once

#include "hw/spec/npu_config.pb.h"

namespace npu::spec {

// Horowitz's figures (docs/energy-area.md) are for 45 nm at 0.9 V: every scale is relative to it.
inline constexpr double kReferenceVoltageV = 0.9;

struct TechParams {
  TechNode node = NODE_45NM;
  double nominal_voltage_v = 0;  // the node's usual supply
  double voltage_v = 0;          // the supply assumed (nominal unless tech.voltage_v)
  double capacitance_scale = 0;  // switched capacitance relative to 45 nm: feature size / 45 nm
  double area_scale = 0;         // area relative to 45 nm: the 6T SRAM bitcell area ratio
  double dram_pj_per_byte = 0;
  double leakage_mw_per_mm2 = 0;  // at voltage_v

  // Dynamic energy relative to 45 nm at 0.9 V: C x V^2.
  double energy_scale() const {
    return capacitance_scale * (voltage_v / kReferenceVoltageV) * (voltage_v / kReferenceVoltageV);
  }
};

// The preset of `node` (NODE_28NM for TECH_NODE_UNSPECIFIED).
TechParams TechPreset(TechNode node);
// The preset of config.tech().node() with every field the config sets explicitly.
TechParams ResolveTech(const NpuConfig& config);

}  // namespace npu::spec
