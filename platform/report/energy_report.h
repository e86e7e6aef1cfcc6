// The energy and area of a run: the events the units counted per instruction (InsnRecord::events)
// summed per layer and priced by spec::EnergyCosts, plus leakage over each layer's cycles; the
// area per unit from spec::UnitAreas. Layer cycles partition the run, and every instruction
// belongs to one layer, so the layers' energies add up to the run's.
#pragma once

#include <vector>

#include "hw/common/unit_context.h"
#include "hw/spec/area_model.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/energy_model.h"
#include "hw/spec/unit_events.h"

namespace npu::report {

struct EnergyFigures {
  spec::UnitEvents events;
  spec::EnergyBreakdown pj{};  // per unit
  double total_pj = 0;
};

// The events of these instructions, of those that ran.
spec::UnitEvents SumEvents(const std::vector<hw::InsnRecord>& records,
                           const std::vector<uint32_t>& instructions);
// The energy of `events` plus leakage over `cycles`.
EnergyFigures PriceEvents(const spec::NpuConfig& config, const spec::UnitEvents& events,
                          uint64_t cycles);
// Sums figures (the run's from its layers').
void Accumulate(const EnergyFigures& part, EnergyFigures& total);

}  // namespace npu::report
