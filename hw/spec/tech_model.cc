// Technology presets and overrides.
#include "hw/spec/tech_model.h"

namespace npu::spec {
namespace {

// Horowitz (ISSCC 2014): 1.3-2.6 nJ per 64-bit DRAM access; the low end, per byte. DRAM is a
// separate chip: its energy does not follow the NPU's node.
constexpr double kDramPjPerByte = 1300.0 / 8;
// Static power density at the nominal supply (an assumption, docs/energy-area.md): denser nodes
// leak less per transistor but pack more transistors per mm^2.
constexpr double kLeakageMwPerMm2 = 10.0;
// 6T SRAM bitcells (um^2) published for each node (docs/energy-area.md); 45 nm is the reference.
constexpr double kBitcell45Um2 = 0.346;

struct NodeRow {
  TechNode node;
  double feature_nm;
  double nominal_voltage_v;
  double bitcell_um2;
};
constexpr NodeRow kNodes[] = {
    {NODE_65NM, 65, 1.0, 0.525}, {NODE_45NM, 45, 0.9, kBitcell45Um2}, {NODE_28NM, 28, 0.9, 0.127},
    {NODE_16NM, 16, 0.8, 0.074}, {NODE_7NM, 7, 0.75, 0.027},
};

}  // namespace

TechParams TechPreset(TechNode node) {
  const TechNode wanted = node == TECH_NODE_UNSPECIFIED ? NODE_28NM : node;
  NodeRow row = kNodes[1];
  for (const NodeRow& r : kNodes) {
    if (r.node == wanted) row = r;
  }
  TechParams t;
  t.node = row.node;
  t.nominal_voltage_v = row.nominal_voltage_v;
  t.voltage_v = row.nominal_voltage_v;
  t.capacitance_scale = row.feature_nm / 45.0;
  t.area_scale = row.bitcell_um2 / kBitcell45Um2;
  t.dram_pj_per_byte = kDramPjPerByte;
  t.leakage_mw_per_mm2 = kLeakageMwPerMm2;
  return t;
}

TechParams ResolveTech(const NpuConfig& config) {
  const TechConfig& tech = config.tech();
  TechParams t = TechPreset(tech.node());
  if (tech.has_voltage_v()) {
    // Leakage current is taken as fixed, so static power follows the supply linearly.
    t.leakage_mw_per_mm2 *= tech.voltage_v() / t.nominal_voltage_v;
    t.voltage_v = tech.voltage_v();
  }
  if (tech.has_dram_pj_per_byte()) t.dram_pj_per_byte = tech.dram_pj_per_byte();
  if (tech.has_leakage_mw_per_mm2()) t.leakage_mw_per_mm2 = tech.leakage_mw_per_mm2();
  return t;
}

}  // namespace npu::spec
