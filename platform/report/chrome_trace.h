// The run's timeline in the Chrome trace-event format, which Perfetto (ui.perfetto.dev) and
// chrome://tracing open. One track per engine: the command processor's fetch, each DMA engine's
// dispatcher (its token waits) and each of its channels, the MAC array, the vector unit.
// Instructions are complete events named by opcode with their index and layer; token waits are
// "wait input" / "wait buffer" events; gaps are "idle" events, so each track covers the run from
// 0 to its last cycle without overlap. CPU ops the firmware ran on the control core are events on
// a "cpu" track, named by their layer. Times are microseconds at the configured clock.
#pragma once

#include <string>
#include <vector>

#include "firmware/driver.h"
#include "hw/common/unit_context.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::report {

std::string ToChromeTrace(const std::vector<hw::TraceEvent>& events,
                          const std::vector<fw::StepTiming>& steps, uint64_t total_cycles,
                          const spec::NpuConfig& config, const spec::Program& program);

}  // namespace npu::report
