// The watchdog: runs the simulation in slices of simulated time until the firmware returns,
// nothing is left to simulate (a hang), a cycle budget runs out or a host-time limit passes (a
// runaway or livelocked run). Between slices the simulation is paused, so the caller can then
// describe where every queue stands.
//
// A simulation stuck at one simulated instant (delta cycles without end) or inside one long
// firmware kernel never comes back to the slice loop; for that, a HardDeadline
// (hard_deadline.h) ends the process kTimeoutGraceSeconds past the time limit.
#pragma once

#include <cstdint>

#include "platform/control_core.h"

namespace npu::platform {

enum class SimulationEnd { kFirmwareReturned, kNothingLeft, kCycleBudget, kTimeout };

// `max_cycles`: simulated NPU cycles from elaboration; `timeout_seconds`: host seconds; 0: no
// limit (RunOptions holds both).
SimulationEnd Simulate(const ControlCore& core, const hw::Clock& clock, uint64_t max_cycles,
                       double timeout_seconds);

}  // namespace npu::platform
