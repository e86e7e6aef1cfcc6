// Pricing the counted events.
#include "platform/report/energy_report.h"

namespace npu::report {

spec::UnitEvents SumEvents(const std::vector<hw::InsnRecord>& records,
                           const std::vector<uint32_t>& instructions) {
  spec::UnitEvents sum;
  for (uint32_t i : instructions) {
    if (i < records.size()) sum += records[i].events;
  }
  return sum;
}

EnergyFigures PriceEvents(const spec::NpuConfig& config, const spec::UnitEvents& events,
                          uint64_t cycles) {
  const spec::EnergyCosts costs = spec::ResolveEnergyCosts(config);
  EnergyFigures f;
  f.events = events;
  f.pj = spec::EventEnergy(costs, events);
  f.pj[int(spec::EnergyUnit::kLeakage)] = spec::LeakagePj(costs, cycles, config.clock_mhz());
  f.total_pj = spec::TotalEnergy(f.pj);
  return f;
}

void Accumulate(const EnergyFigures& part, EnergyFigures& total) {
  total.events += part.events;
  for (int u = 0; u < spec::kNumEnergyUnits; ++u) total.pj[u] += part.pj[u];
  total.total_pj = spec::TotalEnergy(total.pj);
}

}  // namespace npu::report
